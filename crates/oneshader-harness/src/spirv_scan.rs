//! Reading the few facts a Vulkan run checks before handing SPIR-V to a driver: the entry points
//! and the `(set, binding)` decorations. A driver given a missing entry point or an unbound
//! descriptor may crash the whole test process instead of returning an error.

const MAGIC: u32 = 0x0723_0203;
const HEADER_WORDS: usize = 5;
const OP_ENTRY_POINT: u32 = 15;
const OP_DECORATE: u32 = 71;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;

/// The SPIR-V execution model of compute shaders (`GLCompute`).
pub(crate) const EXECUTION_MODEL_GL_COMPUTE: u32 = 5;

/// What the scan found in a module.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct ModuleFacts {
    /// `(execution model, name)` of every `OpEntryPoint`.
    pub entry_points: Vec<(u32, String)>,
    /// `(set, binding)` of every variable decorated with both.
    pub bindings: Vec<(u32, u32)>,
}

/// Scans a module's instructions; an error says where its structure is broken.
pub(crate) fn scan(words: &[u32]) -> Result<ModuleFacts, String> {
    if words.len() < HEADER_WORDS || words[0] != MAGIC {
        return Err("not a SPIR-V module: no magic number".into());
    }
    let mut facts = ModuleFacts::default();
    let mut sets: Vec<(u32, u32)> = Vec::new();
    let mut bindings: Vec<(u32, u32)> = Vec::new();
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = words[at] & 0xffff;
        let Some(instruction) = words.get(at..at + count).filter(|_| count > 0) else {
            return Err(format!("instruction at word {at} has a bad word count"));
        };
        match (opcode, instruction) {
            (OP_ENTRY_POINT, [_, model, _function, name @ ..]) => {
                facts.entry_points.push((*model, literal_string(name)));
            }
            (OP_DECORATE, [_, target, DECORATION_DESCRIPTOR_SET, set]) => {
                sets.push((*target, *set));
            }
            (OP_DECORATE, [_, target, DECORATION_BINDING, binding]) => {
                bindings.push((*target, *binding));
            }
            _ => {}
        }
        at += count;
    }
    for (target, set) in sets {
        if let Some((_, binding)) = bindings.iter().find(|(t, _)| *t == target) {
            facts.bindings.push((set, *binding));
        }
    }
    Ok(facts)
}

/// A SPIR-V literal string: UTF-8 bytes packed little-endian into words, NUL-terminated.
fn literal_string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_shaders::{spirv_of, ATOMIC_SUM};

    #[test]
    fn finds_entry_points_and_bindings_of_a_real_module() {
        let facts = scan(&spirv_of(ATOMIC_SUM)).expect("naga writes a well-formed module");
        assert_eq!(
            facts.entry_points,
            vec![(EXECUTION_MODEL_GL_COMPUTE, "main".to_string())]
        );
        let mut bindings = facts.bindings;
        bindings.sort();
        assert_eq!(bindings, vec![(0, 0), (0, 1), (1, 0)]);
    }

    #[test]
    fn broken_modules_are_errors_not_panics() {
        assert!(scan(&[]).is_err());
        assert!(scan(&[1, 2, 3, 4, 5]).is_err());
        // A header, then an instruction claiming 9 words with only 1 present.
        assert!(scan(&[MAGIC, 0x0001_0000, 0, 10, 0, (9 << 16) | OP_DECORATE]).is_err());
        // A zero word count would loop forever if it were not rejected.
        assert!(scan(&[MAGIC, 0x0001_0000, 0, 10, 0, 0]).is_err());
    }
}
