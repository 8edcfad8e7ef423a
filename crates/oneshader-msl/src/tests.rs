//! Tests of whole outputs: hand-built IR modules, the properties of their MSL, and the
//! MSL check.

use oneshader_ir::samples;

use crate::{write_entry_point, Options};

#[test]
fn dump_compact() {
    let text = write_entry_point(&samples::compact(), 0, &Options::default()).expect("compact");
    println!("{text}\n{} bytes", text.len());
}
