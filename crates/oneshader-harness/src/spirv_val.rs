//! Validating SPIR-V with `spirv-val` from SPIRV-Tools.

use std::process::Command;
use std::time::Duration;

use crate::process::{run_with_limit, ScratchFile};

/// The longest a single `spirv-val` run may take.
const SPIRV_VAL_LIMIT: Duration = Duration::from_secs(60);

/// Validates a SPIR-V module with `spirv-val --target-env vulkan1.2`.
///
/// The error holds `spirv-val`'s messages. A missing `spirv-val` is an error too, one that says
/// to run `scripts/install-test-deps.sh`: tests that validate fail rather than skip.
pub fn spirv_val(words: &[u32]) -> Result<(), String> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let module = ScratchFile::create(".spv", &bytes)?;
    let mut command = Command::new("spirv-val");
    command
        .args(["--target-env", "vulkan1.2"])
        .arg(module.path());
    let finished = run_with_limit(command, &[], SPIRV_VAL_LIMIT)?;
    if finished.success {
        Ok(())
    } else {
        Err(format!(
            "spirv-val rejected the module ({}):\n{}{}",
            finished.status, finished.stderr, finished.stdout
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_shaders::{spirv_of, ATOMIC_SUM, DOUBLE_PLUS_INDEX};

    #[test]
    fn accepts_what_naga_writes() {
        assert_eq!(spirv_val(&spirv_of(DOUBLE_PLUS_INDEX)), Ok(()));
        assert_eq!(spirv_val(&spirv_of(ATOMIC_SUM)), Ok(()));
    }

    #[test]
    fn rejects_corrupted_words_with_spirv_vals_message() {
        let mut words = spirv_of(DOUBLE_PLUS_INDEX);
        // The id bound (header word 3) now lies below the ids the module uses.
        words[3] = 2;
        let error = spirv_val(&words).expect_err("a too-small id bound is invalid");
        assert!(error.contains("spirv-val rejected"), "{error}");
        assert!(error.to_lowercase().contains("bound"), "{error}");

        let error = spirv_val(&[0xdead_beef]).expect_err("no header at all");
        assert!(error.contains("spirv-val rejected"), "{error}");
    }
}
