//! Tests of the lowering: what the IR says about whole shaders, and diagnostics.

use oneshader_ir::{
    analysis, codes, AddressSpace, Diagnostic, Expression, MathFunction, Module, ResourceKind,
    ShaderStage, SourceMap, Statement, WaveOp,
};

use crate::{compile, FrontendOptions, LowerOptions, MemoryLoader};

const COMPACT: &str = include_str!("../../../../shaders/Compact.hlsl");

fn lower(source: &str) -> (Option<Module>, Vec<Diagnostic>, SourceMap) {
    lower_with(source, FrontendOptions::default())
}

fn lower_with(
    source: &str,
    options: FrontendOptions,
) -> (Option<Module>, Vec<Diagnostic>, SourceMap) {
    let mut sources = SourceMap::new();
    let main = sources.add("test.hlsl", source);
    let (module, diagnostics) = compile(&mut sources, main, &options, &MemoryLoader::new());
    (module, diagnostics.into_vec(), sources)
}

fn errors(source: &str) -> Vec<String> {
    let (module, diagnostics, sources) = lower(source);
    assert!(module.is_none(), "expected errors for:\n{source}");
    diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.to_short_string(&sources))
        .collect()
}

fn module(source: &str) -> Module {
    let (module, diagnostics, sources) = lower(source);
    let errors: Vec<String> = diagnostics
        .iter()
        .map(|d| d.to_short_string(&sources))
        .collect();
    module.unwrap_or_else(|| panic!("lowering failed: {errors:#?}"))
}

#[test]
fn compact_lowers_with_its_resources_and_wave_ops() {
    let m = module(COMPACT);
    assert_eq!(m.entry_points.len(), 1);
    let entry = &m.entry_points[0];
    assert_eq!(entry.name, "CSMain");
    assert_eq!(entry.stage, ShaderStage::Compute);
    assert_eq!(entry.workgroup_size, [64, 1, 1]);
    assert_eq!(analysis::subgroup_operations(&m, entry).bits(), 0x9);

    let resources: Vec<(String, ResourceKind, u32, u32)> = m
        .global_variables
        .iter()
        .filter_map(|(_, g)| {
            let r = g.resource.as_ref()?;
            Some((g.name.clone(), r.kind, r.binding.set, r.binding.binding))
        })
        .collect();
    assert_eq!(
        resources,
        vec![
            ("Values".into(), ResourceKind::StructuredBuffer, 0, 0),
            ("Kept".into(), ResourceKind::RWStructuredBuffer, 0, 1),
            ("Count".into(), ResourceKind::RWByteAddressBuffer, 0, 2),
        ]
    );
    let uses = analysis::global_uses(&m, entry);
    assert!(uses[0].read && !uses[0].write, "Values is only read");
    assert!(uses[1].write && !uses[1].read, "Kept is only written");
    assert!(uses[2].atomic, "Count is used atomically");

    let wave_ops: Vec<WaveOp> = analysis::wave_uses(&entry.function)
        .into_iter()
        .map(|w| w.op)
        .collect();
    assert_eq!(
        wave_ops,
        vec![
            WaveOp::PrefixCountBits,
            WaveOp::ActiveCountBits,
            WaveOp::IsFirstLane,
            WaveOp::ReadLaneFirst
        ]
    );
    let mut atomics = 0;
    analysis::walk_statements(&entry.function.body, &mut |s| {
        if let Statement::Atomic { result, .. } = s {
            assert!(result.is_some(), "the original value is used");
            atomics += 1;
        }
    });
    assert_eq!(atomics, 1);
}

#[test]
fn register_spaces_and_vk_binding_choose_set_and_binding() {
    let m = module(
        "RWStructuredBuffer<uint> A : register(u3, space2);\n\
         [[vk::binding(7, 1)]] RWStructuredBuffer<uint> B : register(u0);\n\
         [numthreads(1,1,1)] void main(uint3 id : SV_DispatchThreadID) { A[id.x] = B[id.x]; }",
    );
    let bindings: Vec<(u32, u32)> = m
        .global_variables
        .iter()
        .filter_map(|(_, g)| {
            g.resource
                .as_ref()
                .map(|r| (r.binding.set, r.binding.binding))
        })
        .collect();
    assert_eq!(bindings, vec![(2, 3), (1, 7)]);
}

#[test]
fn entry_points_are_found_by_attribute_or_name() {
    let source = "RWStructuredBuffer<uint> O : register(u0);\n\
        [numthreads(8,1,1)] void A(uint i : SV_GroupIndex) { O[i] = 1; }\n\
        [numthreads(4,1,1)] void B(uint i : SV_GroupIndex) { O[i] = 2; }\n\
        void C() {}";
    let m = module(source);
    let names: Vec<&str> = m.entry_points.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["A", "B"]);
    let options = FrontendOptions {
        lower: LowerOptions {
            entry_point: Some("B".into()),
            ..LowerOptions::default()
        },
        ..FrontendOptions::default()
    };
    let (m, _, _) = lower_with(source, options);
    let m = m.expect("B compiles");
    assert_eq!(m.entry_points.len(), 1);
    assert_eq!(m.entry_points[0].workgroup_size, [4, 1, 1]);
}

#[test]
fn helper_functions_with_out_parameters_and_overloads() {
    let m = module(
        "RWStructuredBuffer<float> O : register(u0);\n\
         float twice(float x) { return x * 2; }\n\
         uint twice(uint x) { return x << 1; }\n\
         void split(float v, out float lo, inout float hi) { lo = v - 1; hi += v; }\n\
         [numthreads(64,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           float a = 0, b = 1;\n\
           split(twice(1.5f), a, b);\n\
           O[id.x] = a + b + (float)twice(3u);\n\
         }",
    );
    assert_eq!(m.functions.len(), 3, "two overloads and split are lowered");
    let names: Vec<&str> = m.functions.iter().map(|(_, f)| f.name.as_str()).collect();
    assert!(names.contains(&"split"));
    let split = m
        .functions
        .iter()
        .find(|(_, f)| f.name == "split")
        .map(|(_, f)| f)
        .expect("split");
    assert!(matches!(
        m.inner(split.arguments[1].ty),
        oneshader_ir::TypeInner::Pointer {
            space: AddressSpace::Function,
            ..
        }
    ));
}

#[test]
fn bit_intrinsics_return_what_dxc_returns() {
    // DXC: firstbithigh, firstbitlow and countbits return uint of the operand's shape
    // (the operand stays int, so firstbithigh picks the signed search); reversebits
    // returns the operand's type.
    let m = module(
        "RWStructuredBuffer<int3> O : register(u0);\n\
         [numthreads(1,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           int3 v = O[id.x];\n\
           O[id.x] = firstbithigh(v) + firstbitlow(v) + (int3)countbits(v) + reversebits(v);\n\
         }",
    );
    let f = &m.entry_points[0].function;
    let results: Vec<(MathFunction, oneshader_ir::Scalar, oneshader_ir::Scalar)> = f
        .expressions
        .iter()
        .filter_map(|(h, e)| match e {
            Expression::Math { fun, args } => Some((
                *fun,
                m.inner(f.type_of(args[0])).scalar()?,
                m.inner(f.type_of(h)).scalar()?,
            )),
            _ => None,
        })
        .collect();
    use oneshader_ir::Scalar as S;
    assert_eq!(
        results,
        [
            (MathFunction::FirstBitHigh, S::I32, S::U32),
            (MathFunction::FirstBitLow, S::I32, S::U32),
            (MathFunction::CountBits, S::I32, S::U32),
            (MathFunction::ReverseBits, S::I32, S::I32),
        ]
    );
}

#[test]
fn unknown_identifier_points_at_the_use() {
    let e = errors("[numthreads(1,1,1)] void main() {\n  float x = y + 1;\n}");
    assert_eq!(
        e,
        ["test.hlsl(2,13): error OSH0300: unknown identifier 'y'"]
    );
}

#[test]
fn wave_match_is_osh0350_with_the_spec_message() {
    let e = errors(
        "RWStructuredBuffer<uint4> O : register(u0);\n\
         [numthreads(64,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
         O[id.x] = WaveMatch(id.x); }",
    );
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0],
        "test.hlsl(3,11): error OSH0350: The intrinsic 'WaveMatch' is not supported: it needs partitioned subgroup operations, which no target offers portably (SPIR-V has only a vendor extension; MSL and WGSL have none). Build the groups with WaveActiveBallot and WaveReadLaneFirst in a loop instead."
    );
}

#[test]
fn an_intrinsic_name_called_again_is_lowered_as_the_first_time() {
    // Each name's kind is told once and kept: every call of it, of each kind, is
    // lowered and every unsupported call reported.
    let e = errors(
        "RWStructuredBuffer<float> O : register(u0);\n\
         [numthreads(64,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
         float x = abs(-1.0) + abs(2.0) + rcp(2.0) + rcp(4.0) + WaveActiveSum(2.0) + WaveActiveSum(1.0);\n\
         O[0] = x + noise(1.0) + noise(2.0); }",
    );
    assert_eq!(e.len(), 2, "{e:#?}");
    assert!(e
        .iter()
        .all(|m| m.contains("OSH0350") && m.contains("'noise'")));
    assert!(e[0].starts_with("test.hlsl(4,12)") && e[1].starts_with("test.hlsl(4,25)"));
}

#[test]
fn recursion_is_an_error() {
    let e = errors(
        "uint f(uint x) { return x == 0 ? 0 : f(x - 1); }\n\
         RWStructuredBuffer<uint> O : register(u0);\n\
         [numthreads(1,1,1)] void main() { O[0] = f(3); }",
    );
    assert!(
        e.iter().any(|m| m.contains(&codes::RECURSION.to_string())),
        "{e:?}"
    );
}

#[test]
fn writing_a_read_only_buffer_is_an_error() {
    let e = errors(
        "StructuredBuffer<float> V : register(t0);\n\
         [numthreads(1,1,1)] void main() { V[0] = 1; }",
    );
    assert_eq!(e.len(), 1);
    assert!(e[0].contains("OSH0306"), "{e:?}");
}

#[test]
fn missing_entry_point_is_reported() {
    let e = errors("float f() { return 1; }");
    assert!(e[0].contains("OSH0320"), "{e:?}");
}

#[test]
fn ternary_with_wave_op_only_runs_it_on_the_lanes_that_take_that_side() {
    let m = module(
        "RWStructuredBuffer<uint> O : register(u0);\n\
         [numthreads(64,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           O[id.x] = (id.x & 1) != 0 ? WaveActiveSum(id.x) : 0u; }",
    );
    let f = &m.entry_points[0].function;
    let mut wave_inside_if = false;
    analysis::walk_statements(&f.body, &mut |s| {
        if let Statement::If { accept, .. } = s {
            let mut found = false;
            analysis::walk_statements(accept, &mut |inner| {
                if let Statement::Store { value, .. } = inner {
                    found |= matches!(f.expressions[*value], Expression::Wave { .. });
                }
            });
            wave_inside_if |= found;
        }
    });
    assert!(
        wave_inside_if,
        "the wave op must be evaluated inside the branch"
    );
}

#[test]
fn resources_sharing_a_binding_are_an_error_naming_both() {
    let e = errors(
        "StructuredBuffer<uint> In : register(t0);\n\
         RWStructuredBuffer<uint> Out : register(u0);\n\
         [numthreads(1,1,1)] void main() { Out[0] = In[0]; }",
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with(
            "test.hlsl(2,26): error OSH0322: 'Out' and 'In' are both bound at set 0, binding 0"
        ),
        "{e:?}"
    );
}

/// `(code, line, column)` of every diagnostic of `source`, errors and warnings.
fn codes_at(source: &str) -> Vec<(String, u32, u32)> {
    let (_, diagnostics, sources) = lower(source);
    diagnostics
        .iter()
        .map(|d| {
            let (_, line, column) = d
                .span
                .and_then(|s| sources.location(s))
                .unwrap_or(("", 0, 0));
            (d.code.to_string(), line, column)
        })
        .collect()
}

fn expected(items: &[(&str, u32, u32)]) -> Vec<(String, u32, u32)> {
    items
        .iter()
        .map(|(c, l, col)| (c.to_string(), *l, *col))
        .collect()
}

#[test]
fn independent_errors_in_several_functions_are_all_reported_once() {
    let source = "\
RWStructuredBuffer<uint> Out : register(u0);
uint a(uint x) { return x + missing; }
uint b(uint x) { return countbits(1.5f, 2); }
float c() { float2 v = 0; return v.z; }
uint d(uint x) { Light l; return l.count + x; }
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = a(id.x) + b(id.x) + (uint)c() + d(id.x) + WaveMatch(id.x).x;
}
";
    assert_eq!(
        codes_at(source),
        expected(&[
            ("OSH0300", 2, 29),
            ("OSH0303", 3, 25),
            ("OSH0307", 4, 36),
            ("OSH0301", 5, 18),
            ("OSH0350", 8, 59),
        ])
    );
}

#[test]
fn both_operands_and_every_argument_are_checked() {
    let source = "\
RWStructuredBuffer<float> Out : register(u0);
[numthreads(1, 1, 1)]
void CSMain() {
    Out[0] = one + two;
    Out[1] = max(three, four);
    Out[2] = float2(five, six).x;
}
";
    assert_eq!(
        codes_at(source),
        expected(&[
            ("OSH0300", 4, 14),
            ("OSH0300", 4, 20),
            ("OSH0300", 5, 18),
            ("OSH0300", 5, 25),
            ("OSH0300", 6, 21),
            ("OSH0300", 6, 27),
        ])
    );
}

#[test]
fn a_local_of_an_unknown_type_is_reported_once() {
    let source = "\
RWStructuredBuffer<float> Out : register(u0);
[numthreads(1, 1, 1)]
void CSMain() {
    Vec3 p = 1;
    p.x = 2;
    Out[0] = p.x + p.y;
    Out[1] = undefined_name;
}
";
    assert_eq!(
        codes_at(source),
        expected(&[("OSH0301", 4, 5), ("OSH0300", 7, 14)])
    );
}

#[test]
fn initializers_and_returns_warn_about_vector_truncation() {
    let source = "RWStructuredBuffer<float> Out : register(u0);\n\
                  float3 f(float4 c) { return c; }\n\
                  [numthreads(1, 1, 1)]\n\
                  void CSMain() {\n\
                  float4 c = 1;\n\
                  float3 v = c;\n\
                  float3 w = c.rgb;\n\
                  float3 x = (float3)c;\n\
                  Out[0] = v.x + w.x + x.x + f(c).x;\n\
                  }\n";
    assert_eq!(
        codes_at(source),
        expected(&[("OSH0400", 6, 12), ("OSH0400", 2, 29)])
    );
}

#[test]
fn narrowing_conversions_warn_as_dxc_does() {
    // DXC (X3205) warns when the target is narrower in bits: double to float or int,
    // 64-bit to 32-bit integers; not float to int, int to float or anything to bool,
    // and not an untyped literal.
    let source = "RWStructuredBuffer<float> Out : register(u0);\n\
                  float g(float a) { return a; }\n\
                  [numthreads(1, 1, 1)]\n\
                  void CSMain(uint3 id : SV_DispatchThreadID) {\n\
                  double d = id.x;\n\
                  float f = d;\n\
                  int i = f;\n\
                  uint u = d;\n\
                  float h = 2.5;\n\
                  bool b = d;\n\
                  float e = (float)d;\n\
                  Out[0] = f + i + u + h + b + e + g(d);\n\
                  }\n";
    assert_eq!(
        codes_at(source),
        expected(&[("OSH0401", 6, 11), ("OSH0401", 8, 10), ("OSH0401", 12, 36)])
    );
    let (_, diagnostics, _) = lower(source);
    let first = diagnostics
        .iter()
        .find(|d| d.code == codes::CONVERSION_LOSS)
        .expect("a conversion warning");
    assert_eq!(
        first.message,
        "conversion from larger type 'double' to smaller type 'float', possible loss of data"
    );
    assert!(first.help[0].contains("(float)"), "{:?}", first.help);
}

#[test]
fn logical_matrix_operators_and_mismatched_shapes_are_errors() {
    let errors = errors(
        "RWStructuredBuffer<float> O : register(u0);\n\
         [numthreads(1, 1, 1)] void main() {\n\
         float2x2 a = 1; float3x3 b = 2;\n\
         O[0] = (a ^ a)._m00 + (float)(a < a)._m00 + (a && a)._m00;\n\
         O[1] = (a + b)._m00;\n\
         O[2] = (a * float2(1, 2))._m00;\n\
         O[3] = ((float4x4)a)._m00; }",
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("(4,") && e.contains("bitwise operators need integer or bool")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("(4,") && e.contains("'&&' and '||' on 'float2x2'")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("(5,")
                && e.contains("a matrix goes with a matrix of the same shape")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("(6,")
                && e.contains("a matrix goes with a matrix of the same shape")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("(7,") && e.contains("it has fewer rows or columns")),
        "{errors:?}"
    );
}

#[test]
fn static_const_locals_are_constants_and_mutable_static_locals_are_errors() {
    module(
        "RWStructuredBuffer<float2> O : register(u0);\n\
         float2 Corner(uint i) {\n\
         static const float2 corners[4] = { float2(-1, -1), float2(1, -1), float2(-1, 1), float2(1, 1) };\n\
         return corners[i & 3]; }\n\
         [numthreads(4, 1, 1)] void main(uint i : SV_GroupIndex) { O[i] = Corner(i); }",
    );
    let errors = errors(
        "RWStructuredBuffer<uint> O : register(u0);\n\
         [numthreads(1, 1, 1)] void main() { static uint calls = 0; calls++; O[0] = calls;\n\
         groupshared uint g[4]; }",
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("OSH0310") && e.contains("make them 'static const'")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("groupshared variables inside functions")),
        "{errors:?}"
    );
}

#[test]
fn a_case_falling_through_carries_the_cases_it_reaches_and_reports_once() {
    let module = module(
        "RWStructuredBuffer<int> O : register(u0);\n\
         [numthreads(1, 1, 1)] void main(uint i : SV_GroupIndex) {\n\
         int r = 0;\n\
         switch (i) { case 0: r += 1; case 1: r += 2; break; default: r = 7; }\n\
         O[0] = r; }",
    );
    let entry = &module.entry_points[0].function;
    let switch = entry
        .body
        .iter()
        .find_map(|s| match s {
            Statement::Switch { cases, .. } => Some(cases),
            _ => None,
        })
        .expect("a switch");
    // case 0 holds its own store and case 1's, then case 1's break; nothing falls through.
    let stores = |body: &[Statement]| {
        body.iter()
            .filter(|s| matches!(s, Statement::Store { .. }))
            .count()
    };
    assert_eq!(stores(&switch[0].body), 2);
    assert!(matches!(switch[0].body.last(), Some(Statement::Break)));
    assert!(switch.iter().all(|case| !case.fall_through));
    // An error in a case reached by fallthrough is reported once.
    let errors = errors(
        "RWStructuredBuffer<int> O : register(u0);\n\
         [numthreads(1, 1, 1)] void main(uint i : SV_GroupIndex) {\n\
         switch (i) { case 0: O[0] = 1; case 1: O[1] = undefined_name; break; } }",
    );
    assert_eq!(
        errors
            .iter()
            .filter(|e| e.contains("undefined_name"))
            .count(),
        1,
        "{errors:?}"
    );
}

#[test]
fn a_typedef_of_a_vector_or_matrix_constructs_like_its_type() {
    module(
        "typedef float3 color3;\ntypedef float2x2 rot2;\ntypedef uint index;\n\
         RWStructuredBuffer<float4> O : register(u0);\n\
         [numthreads(1, 1, 1)] void main() {\n\
         color3 c = color3(1, 0.5, 0);\n\
         rot2 r = rot2(0, 1, -1, 0);\n\
         O[0] = float4(c, index(2.5)) + float4(r[0], r[1]); }",
    );
    let errors = errors(
        "struct S { float a; };\ntypedef S T;\nRWStructuredBuffer<float> O : register(u0);\n\
         [numthreads(1, 1, 1)] void main() { O[0] = T(1).a; }",
    );
    assert!(!errors.is_empty());
}

#[test]
fn member_functions_name_fields_and_siblings_without_this() {
    // `this` is never spelled: fields and sibling methods are found all the same; a
    // local named like a field hides it, and an unnamed parameter is no name.
    let m = module(
        "struct S { float a; float b;\n\
         float sum() { return a + b; }\n\
         float twice(float) { float b = 2; return sum() * b; } };\n\
         RWStructuredBuffer<float> O : register(u0);\n\
         [numthreads(1, 1, 1)] void main() { S s; s.a = 1; s.b = 3; O[0] = s.twice(7); }",
    );
    let twice = function_named(&m, "S_twice");
    let sum = m
        .functions
        .iter()
        .find(|(_, f)| f.name == "S_sum")
        .map(|(handle, _)| handle)
        .expect("S_sum is lowered");
    let calls_sum = |block: &[Statement]| {
        block
            .iter()
            .any(|s| matches!(s, Statement::Call { function, .. } if *function == sum))
    };
    assert!(calls_sum(&twice.body));
    // `b` in `twice` is its local, not the field: the only field it reads is none.
    assert!(!twice
        .expressions
        .iter()
        .any(|(_, e)| matches!(e, Expression::AccessIndex { index: 1, .. })));
    assert!(twice.local_variables.iter().any(|(_, v)| &*v.name == "b"));
}

/// The IR function named `name`.
fn function_named<'m>(m: &'m Module, name: &str) -> &'m oneshader_ir::Function {
    m.functions
        .iter()
        .map(|(_, f)| f)
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function '{name}'"))
}

/// The names of the globals function `f` refers to.
fn globals_used(m: &Module, f: &oneshader_ir::Function) -> Vec<String> {
    let mut names: Vec<String> = f
        .expressions
        .iter()
        .filter_map(|(_, e)| match e {
            Expression::GlobalVariable(g) => Some(m.global_variables[*g].name.clone()),
            _ => None,
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn resource_parameters_are_specialized_per_global_resource() {
    // As in FidelityFX ParallelSort: helpers take the buffers they work on. DXC
    // inlines them; here each distinct list of resources gets its own IR function.
    let m = module(
        "RWStructuredBuffer<uint> A : register(u0);\n\
         RWStructuredBuffer<uint> B : register(u1);\n\
         void bump(RWStructuredBuffer<uint> buf, uint i, out uint old) { InterlockedAdd(buf[i], 1, old); }\n\
         uint twice(uint i, RWStructuredBuffer<uint> buf) { uint o; bump(buf, i, o); bump(buf, i + 1, o); return o; }\n\
         [numthreads(1,1,1)] void main(uint i : SV_DispatchThreadID) {\n\
           uint o;\n\
           bump(A, 0, o);\n\
           A[1] = twice(i, A) + twice(i, B);\n\
         }",
    );
    let mut names: Vec<&str> = m.functions.iter().map(|(_, f)| f.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["bump_A", "bump_B", "twice_A", "twice_B"]);
    let bump_b = function_named(&m, "bump_B");
    assert_eq!(bump_b.arguments.len(), 2, "only i and old are IR arguments");
    assert_eq!(globals_used(&m, bump_b), ["B"]);
    assert_eq!(
        globals_used(&m, function_named(&m, "twice_A")),
        Vec::<String>::new()
    );
    // twice_A calls bump_A, never bump_B.
    let calls: Vec<String> = function_named(&m, "twice_A")
        .body
        .iter()
        .filter_map(|s| match s {
            Statement::Call { function, .. } => Some(m.functions[*function].name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(calls, ["bump_A", "bump_A"]);
}

#[test]
fn a_resource_parameter_takes_only_a_global_resource_of_its_type() {
    let e = errors(
        "RWStructuredBuffer<uint> A : register(u0);\n\
         StructuredBuffer<float> F : register(t1);\n\
         void put(RWStructuredBuffer<uint> buf) { buf[0] = 1; }\n\
         [numthreads(1,1,1)] void main() { put(F); put(3); put(A); }",
    );
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e[0].starts_with("test.hlsl(4,35): error OSH0304"), "{e:?}");
    assert!(e[1].starts_with("test.hlsl(4,43): error OSH0304"), "{e:?}");
}

#[test]
fn a_constant_buffer_parameter_is_its_struct_by_value() {
    let m = module(
        "struct P { uint a; int b; };\n\
         ConstantBuffer<P> C : register(b0);\n\
         RWStructuredBuffer<int> O : register(u1);\n\
         int sum(ConstantBuffer<P> p) { return p.a + p.b; }\n\
         int first(P p) { return p.b; }\n\
         [numthreads(1,1,1)] void main() { O[0] = sum(C) + first(C); }",
    );
    let sum = function_named(&m, "sum");
    assert_eq!(sum.arguments.len(), 1);
    assert!(matches!(
        m.inner(sum.arguments[0].ty),
        oneshader_ir::TypeInner::Struct { .. }
    ));
}

#[test]
fn system_values_declared_with_fewer_components_do_not_warn() {
    // DXC accepts `uint id : SV_GroupThreadID` (the x component) without a warning.
    let (module, diagnostics, sources) = lower(
        "RWStructuredBuffer<uint> O : register(u0);\n\
         [numthreads(8,1,1)] void main(uint l : SV_GroupThreadID, uint2 g : SV_GroupID) { O[l] = g.y; }",
    );
    let messages: Vec<String> = diagnostics
        .iter()
        .map(|d| d.to_short_string(&sources))
        .collect();
    assert!(module.is_some() && messages.is_empty(), "{messages:?}");
}

#[test]
fn vk_push_constant_is_a_push_constant_block_placed_after_every_set() {
    let (module, diagnostics, _) = lower(
        "struct Root { uint shift; };\n\
         [[vk::push_constant]] Root root;\n\
         [[vk::binding(1, 3)]] RWStructuredBuffer<uint> O : register(u0);\n\
         [numthreads(1,1,1)] void main() { O[0] = root.shift; }",
    );
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let module = module.expect("lowered");
    let root = module
        .global_variables
        .iter()
        .map(|(_, g)| g)
        .find(|g| g.name == "root")
        .expect("root");
    let resource = root.resource.as_ref().expect("a resource");
    assert_eq!(resource.kind, oneshader_ir::ResourceKind::PushConstant);
    assert_eq!(root.space, oneshader_ir::AddressSpace::Uniform);
    assert_eq!(
        resource.binding,
        oneshader_ir::ResourceBinding { set: 4, binding: 0 }
    );
}

#[test]
fn a_second_push_constant_block_is_an_error_naming_both() {
    let e = errors(
        "struct Root { uint shift; };\n\
         [[vk::push_constant]] Root first;\n\
         [[vk::push_constant]] cbuffer Second { uint count; };\n\
         RWStructuredBuffer<uint> O : register(u0);\n\
         [numthreads(1,1,1)] void main() { O[0] = first.shift + count; }",
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("'Second' is a second [[vk::push_constant]] block after 'first'"),
        "{e:?}"
    );
}

#[test]
fn a_push_constant_of_scalar_type_is_an_error() {
    let e = errors(
        "[[vk::push_constant]] uint shift;\n\
         RWStructuredBuffer<uint> O : register(u0);\n\
         [numthreads(1,1,1)] void main() { O[0] = shift; }",
    );
    assert!(
        e.iter().any(|m| m.contains("must have a struct type")),
        "{e:?}"
    );
}

#[test]
fn raw_buffer_struct_loads_are_tightly_packed_and_64_bit_members_are_diagnosed() {
    // A float3 right after a float starts at word 1 (std430 would put it at word 4).
    let m = module(
        "struct S { float a; float3 b; };\n\
         ByteAddressBuffer In : register(t0);\n\
         RWStructuredBuffer<float> Out : register(u1);\n\
         [numthreads(1,1,1)] void main() { S s = In.Load<S>(0); Out[0] = s.b.x; }",
    );
    let entry = &m.entry_points[0];
    let word_offsets: Vec<u32> = entry
        .function
        .expressions
        .iter()
        .filter_map(|(_, e)| match e {
            Expression::Literal(oneshader_ir::Literal::U32(v)) => Some(*v),
            _ => None,
        })
        .collect();
    for word in 1..=3 {
        assert!(word_offsets.contains(&word), "{word_offsets:?}");
    }
    assert!(!word_offsets.contains(&4), "{word_offsets:?}");

    let e = errors(
        "struct D { double d; };\n\
         ByteAddressBuffer In : register(t0);\n\
         RWStructuredBuffer<float> Out : register(u1);\n\
         [numthreads(1,1,1)] void main() { D d = In.Load<D>(0); Out[0] = (float)d.d; }",
    );
    assert!(
        e.iter()
            .any(|e| e.contains("OSH") && e.contains("Load<D>") && e.contains("64-bit")),
        "{e:?}"
    );
}

/// The block of a row-packed constant buffer: its size in bytes.
fn cbuffer_block_size(m: &Module, name: &str) -> u32 {
    let global = m
        .global_variables
        .iter()
        .find(|(_, g)| g.name == name)
        .map(|(_, g)| g.ty)
        .expect("the cbuffer is declared");
    match &m.types[global].inner {
        oneshader_ir::TypeInner::Struct { size, .. } => *size,
        other => panic!("{other:?}"),
    }
}

#[test]
fn cbuffers_with_structs_arrays_and_packoffset_are_row_packed_at_d3d_offsets() {
    // A struct is 24 bytes unpadded (float3, float, float2); an array of two is 32 + 24;
    // the float after it shares its last row: 16 + 56 = 72 → 76 bytes → 5 rows.
    let m = module(
        "struct L { float3 d; float i; float2 uv; };\n\
         cbuffer C : register(b0) { float a; L lights[2]; float after; };\n\
         cbuffer K : register(b1) { float k : packoffset(c7.w); };\n\
         ConstantBuffer<L> P : register(b2);\n\
         RWStructuredBuffer<float> Out : register(u3);\n\
         [numthreads(1,1,1)] void main() { Out[0] = a + lights[1].uv.y + after + k + P.i; }",
    );
    assert_eq!(cbuffer_block_size(&m, "C"), 80);
    assert_eq!(cbuffer_block_size(&m, "K"), 128);
    assert_eq!(cbuffer_block_size(&m, "P"), 32);
}

#[test]
fn packoffset_across_a_register_and_16_bit_members_are_diagnosed() {
    let e = errors(
        "cbuffer C : register(b0) { float2 v : packoffset(c0.w); };\n\
         RWStructuredBuffer<float> Out : register(u0);\n\
         [numthreads(1,1,1)] void main() { Out[0] = v.x; }",
    );
    assert!(
        e.iter()
            .any(|e| e.contains("OSH0322") && e.contains("register boundary")),
        "{e:?}"
    );
    let e = errors(
        "cbuffer C : register(b0) { float a[2]; double d; };\n\
         RWStructuredBuffer<float> Out : register(u0);\n\
         [numthreads(1,1,1)] void main() { Out[0] = a[0] + (float)d; }",
    );
    assert!(
        e.iter()
            .any(|e| e.contains("'double'") && e.contains("32-bit")),
        "{e:?}"
    );
}

#[test]
fn structured_buffer_counters_are_resources_at_the_lowest_free_binding_of_the_set() {
    let m = module(
        "AppendStructuredBuffer<uint> A : register(u0, space1);\n\
         RWStructuredBuffer<uint> B : register(u2, space1);\n\
         RWStructuredBuffer<uint> Unused : register(u1);\n\
         [numthreads(1,1,1)] void main() { A.Append(7); B[B.IncrementCounter()] = 1; }",
    );
    let resources: Vec<(String, u32, u32)> = m
        .global_variables
        .iter()
        .filter_map(|(_, g)| {
            let r = g.resource.as_ref()?;
            Some((g.name.clone(), r.binding.set, r.binding.binding))
        })
        .collect();
    assert!(
        resources.contains(&("counter.var.A".to_string(), 1, 1)),
        "{resources:?}"
    );
    assert!(
        resources.contains(&("counter.var.B".to_string(), 1, 3)),
        "{resources:?}"
    );
    // Unused's counter is never used, so it is never declared.
    assert!(!resources.iter().any(|r| r.0 == "counter.var.Unused"));
}

#[test]
fn vk_counter_binding_puts_the_counter_at_that_binding_of_the_buffer_set() {
    let m = module(
        "[[vk::counter_binding(7)]] AppendStructuredBuffer<uint> A : register(u0, space1);\n\
         [[vk::binding(3, 2)]] [[vk::counter_binding(0)]] RWStructuredBuffer<uint> B : register(u2);\n\
         [numthreads(1,1,1)] void main() { A.Append(7); B[B.IncrementCounter()] = 1; }",
    );
    let resources: Vec<(String, u32, u32)> = m
        .global_variables
        .iter()
        .filter_map(|(_, g)| {
            let r = g.resource.as_ref()?;
            Some((g.name.clone(), r.binding.set, r.binding.binding))
        })
        .collect();
    assert!(
        resources.contains(&("counter.var.A".to_string(), 1, 7)),
        "{resources:?}"
    );
    assert!(
        resources.contains(&("counter.var.B".to_string(), 2, 0)),
        "{resources:?}"
    );
    let e = errors(
        "[[vk::counter_binding(1)]] StructuredBuffer<uint> S : register(t0);\n\
         [[vk::counter_binding(-1)]] RWStructuredBuffer<uint> R : register(u1);\n\
         [numthreads(1,1,1)] void main() { R[0] = S[0]; }",
    );
    assert!(
        e.iter()
            .any(|e| e.contains("OSH") && e.contains("only applies to RWStructuredBuffer")),
        "{e:?}"
    );
    assert!(
        e.iter()
            .any(|e| e.contains("malformed [[vk::counter_binding(N)]]")),
        "{e:?}"
    );
}

#[test]
fn unroll_makes_loop_variables_constant_offsets_only_for_loops_it_can_unroll() {
    let source = |head: &str, body_extra: &str| {
        format!(
            "Texture2D<float4> T : register(t0);\n\
             RWStructuredBuffer<float4> Out : register(u1);\n\
             [numthreads(1,1,1)] void main() {{ float4 a = 0;\n\
             {head} {{ a += T.Load(int3(0, 0, 0), int2(i, 0)); {body_extra} }}\n\
             Out[0] = a; }}"
        )
    };
    let unrolled = module(&source("[unroll] for (int i = 0; i < 4; i++)", ""));
    assert!(unrolled.functions.iter().all(|(_, f)| !f
        .body
        .iter()
        .any(|s| matches!(s, oneshader_ir::Statement::Loop { .. }))));
    for (head, extra) in [
        ("for (int i = 0; i < 4; i++)", ""),
        (
            "[unroll] for (int i = 0; i < 4; i++)",
            "if (a.x > 1) break;",
        ),
        ("[unroll] for (int i = 0; i < 4; i++)", "i += 1;"),
        ("[unroll] for (int i = 0; i < 100; i++)", ""),
    ] {
        let e = errors(&source(head, extra));
        assert!(
            e.iter().any(|e| e.contains("offset must be a constant")),
            "{head} {extra}: {e:?}"
        );
    }
}

#[test]
fn append_and_consume_buffers_have_only_their_own_methods() {
    let e = errors(
        "AppendStructuredBuffer<uint> A : register(u0);\n\
         [numthreads(1,1,1)] void main() { A[0] = 1; }",
    );
    assert!(
        e.iter()
            .any(|e| e.contains("AppendStructuredBuffer cannot be indexed")),
        "{e:?}"
    );
    let e = errors(
        "ConsumeStructuredBuffer<uint> C : register(u0);\n\
         RWStructuredBuffer<uint> Out : register(u1);\n\
         [numthreads(1,1,1)] void main() { Out[0] = C.IncrementCounter(); }",
    );
    assert!(
        e.iter().any(|e| e.contains("OSH0307")
            && e.contains("ConsumeStructuredBuffer has no method 'IncrementCounter'")),
        "{e:?}"
    );
}

#[test]
fn a_push_constant_cbuffer_that_needs_rows_is_a_specific_error() {
    let e = errors(
        "[[vk::push_constant]] cbuffer Root { uint shift; float weights[3]; };\n\
         RWStructuredBuffer<float> O : register(u0);\n\
         [numthreads(1,1,1)] void main() { O[0] = weights[shift]; }",
    );
    assert!(
        e.iter()
            .any(|m| m.contains("OSH0310") && m.contains("declare the block as a struct")),
        "{e:?}"
    );
}

#[test]
fn row_packed_blocks_cannot_be_push_constants_and_say_why() {
    let tbuffer = errors(
        "[[vk::push_constant]] tbuffer Params { uint count; };\n\
         [numthreads(1, 1, 1)] void main() {}\n",
    );
    assert_eq!(tbuffer.len(), 1, "{tbuffer:?}");
    assert!(
        tbuffer[0].contains(
            "the tbuffer 'Params' can't be a [[vk::push_constant]] block: make it a cbuffer"
        ),
        "{tbuffer:?}"
    );
    let rows = errors(
        "struct S { float a; };\n\
         [[vk::push_constant]] cbuffer Params { float x; S s; };\n\
         [numthreads(1, 1, 1)] void main() {}\n",
    );
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(
        rows[0].contains("the [[vk::push_constant]] cbuffer 'Params' has members that need HLSL's 16-byte row packing"),
        "{rows:?}"
    );
}

/// Whether `block`, and every block nested in it, holds no spare capacity.
fn exact_blocks(block: &[Statement], capacity: usize) -> bool {
    capacity == block.len()
        && block.iter().all(|statement| match statement {
            Statement::Block(inner) => exact_blocks(inner, inner.capacity()),
            Statement::If { accept, reject, .. } => {
                exact_blocks(accept, accept.capacity()) && exact_blocks(reject, reject.capacity())
            }
            Statement::Switch { cases, .. } => {
                cases.capacity() == cases.len()
                    && cases
                        .iter()
                        .all(|case| exact_blocks(&case.body, case.body.capacity()))
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                exact_blocks(body, body.capacity())
                    && exact_blocks(continuing, continuing.capacity())
            }
            _ => true,
        })
}

#[test]
fn lowered_blocks_hold_no_spare_capacity() {
    // Every kind of block the lowering builds, among them those it grows after taking
    // them out: a switch's cases and a case falling into the next, a `do`/`while`
    // condition, a conditional whose arms have effects.
    let module = module(
        "RWStructuredBuffer<int> Out : register(u0);
         int Helper(int x, int y)
         {
             int n = 0;
             switch (x)
             {
                 case 0: n += 1;
                 case 1: n += 2; break;
                 case 2:
                 case 3: n = 7; break;
                 default: n = 9; break;
             }
             do { n += y; } while (n < 10);
             for (int i = 0; i < 3; ++i) { if (n > i) n -= i; else n += i; }
             while (n > 100) { n /= 2; }
             int k = x > 0 ? y++ : y--;
             return n + k + y;
         }
         [numthreads(1, 1, 1)]
         void main(uint3 id : SV_DispatchThreadID)
         {
             Out[id.x] = Helper(int(id.x), int(id.y));
         }",
    );
    let functions = module.functions.iter().map(|(_, f)| f);
    let entries = module.entry_points.iter().map(|e| &e.function);
    for function in functions.chain(entries) {
        assert!(
            exact_blocks(&function.body, function.body.capacity()),
            "a block of '{}' holds spare capacity",
            function.name
        );
    }
}

/// A definition after a prototype names its parameters its own way: the body's names are
/// the definition's, so the parameter it assigns is the one copied into a local (the
/// prototype's names once made `b *= 2` an error, and swapped names copied the other).
#[test]
fn a_definition_after_its_prototype_uses_its_own_parameter_names() {
    let m = module(
        "float f(float);\n\
         float f(float b) { b *= 2; return b; }\n\
         uint g(uint a, uint b);\n\
         uint g(uint b, uint a) { a++; return a + b; }\n\
         RWStructuredBuffer<uint> O : register(u0);\n\
         [numthreads(1, 1, 1)] void main() { O[0] = g(1, 2) + uint(f(3)); }",
    );
    let copied_argument = |name: &str| -> Vec<(String, u32)> {
        let function = function_named(&m, name);
        function
            .body
            .iter()
            .filter_map(|s| match s {
                Statement::Store { pointer, value } => {
                    match (
                        &function.expressions[*pointer],
                        &function.expressions[*value],
                    ) {
                        (Expression::LocalVariable(var), Expression::FunctionArgument(i)) => {
                            Some((function.local_variables[*var].name.to_string(), *i))
                        }
                        _ => None,
                    }
                }
                _ => None,
            })
            .collect()
    };
    assert_eq!(copied_argument("f"), [("b".to_string(), 0)]);
    assert_eq!(copied_argument("g"), [("a".to_string(), 1)]);
}
