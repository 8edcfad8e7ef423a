//! The module builder (`module.rs`) and its clean-ups (`compact.rs`) on hand-built
//! modules, read back with rspirv.

use rspirv::spirv::{
    AddressingModel, Capability, ExecutionMode, ExecutionModel, FunctionControl, MemoryModel, Op,
    StorageClass,
};

use super::*;
use crate::module::Builder;

/// A compute module around one function whose body `body` writes; returns its words.
fn module_with(body: impl FnOnce(&mut Builder)) -> Vec<u32> {
    let mut b = Builder::new();
    b.set_version(1, 5);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let function_type = b.type_function(void, &[]);
    let entry = b.id();
    b.begin_function(void, entry, FunctionControl::NONE, function_type)
        .unwrap();
    b.begin_block(None).unwrap();
    body(&mut b);
    b.ret().unwrap();
    b.end_function().unwrap();
    b.entry_point(ExecutionModel::GLCompute, entry, "main", []);
    b.execution_mode(entry, ExecutionMode::LocalSize, [1, 1, 1]);
    b.name(entry, "main");
    b.assemble()
}

#[test]
fn types_are_declared_once() {
    let mut b = Builder::new();
    let uint = b.type_int(32, 0);
    assert_eq!(b.type_int(32, 0), uint);
    assert_ne!(b.type_int(32, 1), uint);
    let pointer = b.type_pointer(StorageClass::Function, uint);
    assert_eq!(b.type_pointer(StorageClass::Function, uint), pointer);
    let void = b.type_void();
    assert_eq!(
        b.type_function(void, &[uint]),
        b.type_function(void, &[uint])
    );
}

#[test]
fn write_only_variables_and_unused_globals_are_left_out() {
    let words = module_with(|b| {
        let uint = b.type_int(32, 0);
        let unused = b.constant_bit32(uint, 7);
        b.name(unused, "unused");
        let pointer = b.type_pointer(StorageClass::Function, uint);
        let zero = b.constant_bit32(uint, 0);
        let written = b.function_variable(pointer, None);
        b.name(written, "written");
        b.store(written, zero, None).unwrap();
    });
    validate(&words);
    let module = load(&words);
    let globals: Vec<Op> = module
        .types_global_values
        .iter()
        .map(|i| i.class.opcode)
        .collect();
    assert_eq!(globals, [Op::TypeVoid, Op::TypeFunction]);
    assert_eq!(module.debug_names.len(), 1, "{}", disassemble(&words));
    assert_eq!(body_ops(&words), [Op::Label, Op::Return]);
}

/// The stores to write-only variables go and the words between them are copied in runs:
/// two removed in a row first, kept instructions between, and a removed store last.
#[test]
fn stores_to_write_only_variables_go_in_any_order() {
    let words = module_with(|b| {
        let uint = b.type_int(32, 0);
        let pointer = b.type_pointer(StorageClass::Function, uint);
        let [one, two, three, four] = [1, 2, 3, 4].map(|value| b.constant_bit32(uint, value));
        let a = b.function_variable(pointer, None);
        let c = b.function_variable(pointer, None);
        let kept = b.function_variable(pointer, Some(one));
        b.store(a, one, None).unwrap();
        b.store(c, two, None).unwrap();
        // Read through another pointer, so that it is not promoted to a value.
        let copy = b.id();
        b.instruction_ids(Op::CopyObject, Some(pointer), Some(copy), &[kept])
            .unwrap();
        let value = b.id();
        b.instruction_ids(Op::Load, Some(uint), Some(value), &[copy])
            .unwrap();
        b.store(a, three, None).unwrap();
        b.store(kept, value, None).unwrap();
        b.store(c, four, None).unwrap();
    });
    validate(&words);
    assert_eq!(
        body_ops(&words),
        [
            Op::Label,
            Op::Variable,
            Op::CopyObject,
            Op::Load,
            Op::Store,
            Op::Return
        ],
        "{}",
        disassemble(&words)
    );
    let module = load(&words);
    let constants = module
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::Constant)
        .count();
    assert_eq!(constants, 1, "only the kept variable's initializer stays");
}

#[test]
fn read_variables_stay_at_the_start_of_the_first_block() {
    let words = module_with(|b| {
        let uint = b.type_int(32, 0);
        let pointer = b.type_pointer(StorageClass::Function, uint);
        let zero = b.constant_bit32(uint, 0);
        let read = b.function_variable(pointer, Some(zero));
        b.name(read, "read");
        // Read through another pointer, so that it is not promoted to a value.
        let copy = b.id();
        b.instruction_ids(Op::CopyObject, Some(pointer), Some(copy), &[read])
            .unwrap();
        let value = b.id();
        b.instruction_ids(Op::Load, Some(uint), Some(value), &[copy])
            .unwrap();
        b.store(read, value, None).unwrap();
    });
    validate(&words);
    let module = load(&words);
    assert_eq!(module.debug_names.len(), 2, "{}", disassemble(&words));
    assert_eq!(
        body_ops(&words),
        [
            Op::Label,
            Op::Variable,
            Op::CopyObject,
            Op::Load,
            Op::Store,
            Op::Return
        ]
    );
    assert_eq!(module.header.map(|h| h.bound), Some(11));
}

#[test]
fn bytes_are_the_words_little_endian() {
    // Written straight from the builder's sections, the bytes are those of the words.
    let module = oneshader_ir::samples::compact();
    let info = ModuleInfo::new(&module);
    let words = compile(&module);
    let mut writer = crate::ModuleWriter::new(&module, &info, &Options::default());
    let bytes = writer.write_entry_point_bytes(0).expect("Compact compiles");
    let expected: Vec<u8> = words.iter().flat_map(|word| word.to_le_bytes()).collect();
    assert_eq!(bytes, expected);
}
