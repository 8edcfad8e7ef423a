//! Type-checks MSL on hosts without a Metal compiler.
//!
//! The check runs clang over the source with `crates/oneshader-harness/msl`
//! on the include path, where `metal_stdlib` declares the Metal Standard
//! Library (MSL 2.4). The source is compiled as C++ for OpenCL 2021, which is
//! C++17 plus named address spaces: the header maps MSL's `device`,
//! `threadgroup`, `thread` and `constant` onto them, so clang also rejects a
//! pointer passed into the wrong address space. See `docs/msl-check.md` for
//! what the check catches and what it cannot.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The clang driver the check runs.
const CLANG: &str = "clang++";

/// Flags of the check, besides the include path and the source file.
///
/// - `-x clcpp -cl-std=clc++2021 -cl-no-stdinc`: C++17 with OpenCL address
///   spaces, without OpenCL's own builtin header (its `float4` would clash).
/// - `-cl-single-precision-constant`: `1.0` is a `float`, as in MSL.
/// - `-Werror`: every warning is an error, except those MSL needs silenced:
///   `unknown-attributes` (`[[buffer(0)]]` and the rest of MSL's attributes),
///   `c++20-designator` (designated initializers, which MSL accepts) and
///   `array-bounds` (MSL's runtime-sized arrays are declared `T data[1]`).
pub const CLANG_FLAGS: &[&str] = &[
    "-x",
    "clcpp",
    "-cl-std=clc++2021",
    "-cl-no-stdinc",
    "-cl-single-precision-constant",
    "-fsyntax-only",
    "-Werror",
    "-Wno-unknown-attributes",
    "-Wno-c++20-designator",
    "-Wno-array-bounds",
    "-fno-color-diagnostics",
];

/// The directory holding `metal_stdlib`.
pub fn msl_include_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("msl")
}

/// Type-checks `source`, an MSL 2.4 translation unit, with clang against the
/// `metal_stdlib` declaration header.
///
/// Returns `Ok(())` when clang accepts the source, and otherwise clang's
/// diagnostics, with the temporary file's path shown as `<msl>`. A missing
/// clang is an error too, telling how to install it.
pub fn check_msl(source: &str) -> Result<(), String> {
    let source_file = TempSource::write(source)?;
    let include_dir = msl_include_dir();
    let output = Command::new(CLANG)
        .args(CLANG_FLAGS)
        .arg("-isystem")
        .arg(&include_dir)
        .arg(&source_file.path)
        .output()
        .map_err(|err| {
            format!(
                "cannot run {CLANG} ({err}): the MSL check needs clang 14 or later; \
                 run scripts/install-test-deps.sh to install it"
            )
        })?;
    if output.status.success() {
        return Ok(());
    }
    let path = source_file.path.to_string_lossy().into_owned();
    let diagnostics = String::from_utf8_lossy(&output.stderr).replace(&path, "<msl>");
    if diagnostics.trim().is_empty() {
        return Err(format!("{CLANG} rejected the MSL ({})", output.status));
    }
    Err(diagnostics)
}

/// A source file in the temporary directory, removed when dropped.
struct TempSource {
    path: PathBuf,
}

impl TempSource {
    fn write(source: &str) -> Result<Self, String> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "oneshader-msl-check-{}-{}.metal",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        let mut file = std::fs::File::create(&path)
            .map_err(|err| format!("cannot create {}: {err}", path.display()))?;
        file.write_all(source.as_bytes())
            .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
        Ok(Self { path })
    }
}

impl Drop for TempSource {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_where_the_check_looks() {
        assert!(msl_include_dir().join("metal_stdlib").is_file());
        assert!(msl_include_dir().join("simd/simd.h").is_file());
    }

    #[test]
    fn diagnostics_name_the_source_not_the_temp_file() {
        let err = check_msl("#include <metal_stdlib>\nint f() { return undeclared_thing; }\n")
            .expect_err("an undeclared identifier must be rejected");
        assert!(err.contains("<msl>:2:"), "{err}");
        assert!(err.contains("undeclared_thing"), "{err}");
    }
}
