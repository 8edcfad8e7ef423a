//! Every wave and quad intrinsic, executed lane by lane against the CPU model of
//! `oneshader_e2e::wave_model`.
//!
//! For each operand type (int, int3, uint, uint4, float, float2) and each control
//! flow (uniform, and inside a data-dependent branch where only some lanes are
//! active) one compute shader is generated that writes every intrinsic's result into
//! its own words of a per-lane record. It is compiled to SPIR-V, MSL and WGSL, every
//! output is validated (spirv-val, Tint, the MSL check), and it runs on every selected
//! runtime. Each invocation also writes its lane index, the lane count and the first
//! lane's invocation id in uniform control flow, so the model groups lanes into
//! subgroups as the device really did. Inactive lanes must keep a sentinel.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use oneshader::CompileOptions;
use oneshader_e2e::wave_model::{Elem, Reduction, Subgroup};
use oneshader_e2e::{compile_source_and_validate, run, Runtime};
use oneshader_harness::u32_bytes;

/// Threads per workgroup: a multiple of every subgroup size (4, 8, 32, 64).
const WORKGROUP: usize = 64;
/// Workgroups dispatched.
const WORKGROUPS: usize = 2;
/// Invocations in all.
const INVOCATIONS: usize = WORKGROUP * WORKGROUPS;
/// What an inactive lane leaves in its result words.
const SENTINEL: u32 = 0xDEAD_BEEF;
/// Words at the start of each record, written in uniform control flow: the first
/// lane's invocation id, the lane index and the lane count.
const HEADER: usize = 3;
/// The uniform lane indices in `Params`: `WaveReadLaneAt`'s and `QuadReadLaneAt`'s.
const PARAMS: [u32; 2] = [2, 3];

/// A wave operand type.
#[derive(Clone, Copy, Debug)]
struct Ty {
    elem: Elem,
    components: usize,
}

impl Ty {
    fn hlsl(self) -> String {
        if self.components == 1 {
            self.elem.hlsl().to_string()
        } else {
            format!("{}{}", self.elem.hlsl(), self.components)
        }
    }

    fn integer(self) -> bool {
        self.elem != Elem::Float
    }
}

/// Where the intrinsics are called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    /// Every lane active.
    Uniform,
    /// Inside branches on `Flags` bits 2 (wave intrinsics) and 3 (quad intrinsics,
    /// whose branch keeps whole quads so no lane reads an inactive neighbour).
    Divergent,
}

/// The per-lane inputs a value intrinsic reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    /// Distinct values per lane, with both signs (and, for uint, the top bit).
    A,
    /// Products: 1, 2 (3 for uint) and -1, so products stay exact.
    P,
    /// Words with most bits set, for `WaveActiveBitAnd`.
    B,
    /// Equal within the first 32 lanes (and in odd components everywhere).
    E,
}

impl Input {
    fn name(self) -> &'static str {
        match self {
            Input::A => "a",
            Input::P => "p",
            Input::B => "b",
            Input::E => "e",
        }
    }

    fn buffer(self) -> &'static str {
        match self {
            Input::A => "A",
            Input::P => "P",
            Input::B => "B",
            Input::E => "E",
        }
    }

    /// Component `c` of invocation `i`'s value.
    fn value(self, elem: Elem, i: usize, c: usize) -> u32 {
        let small = ((i * 13 + c * 5) % 41) as i32 - 20;
        let number = |v: i32| match elem {
            Elem::Float => (v as f32).to_bits(),
            _ => v as u32,
        };
        match self {
            Input::A => match elem {
                Elem::Uint if i % 3 == 0 => 0x8000_0000 + (i * 11 + c) as u32,
                Elem::Uint => (i * 13 + c * 5) as u32,
                _ => number(small),
            },
            Input::P => {
                let k = i + c;
                match elem {
                    Elem::Uint if k % 5 == 0 => 3,
                    _ if k % 5 == 0 => number(2),
                    Elem::Uint => 1,
                    _ if k % 7 == 3 => number(-1),
                    _ => number(1),
                }
            }
            Input::B => !(1u32 << ((i * 5 + c) % 32)) & !(1u32 << (c + 20)),
            Input::E => {
                if c % 2 == 1 {
                    number(7 + c as i32)
                } else if i % WORKGROUP < 32 {
                    number(5)
                } else {
                    Input::A.value(elem, i, c)
                }
            }
        }
    }
}

/// The `Flags` word of invocation `i`: bit 0 the condition of the ballot-like
/// intrinsics (true in the first 32 lanes of a workgroup), bit 1 `WaveActiveAnyTrue`'s
/// (true in few lanes), bit 2 the divergent wave branch (lanes 1 and 2 of every quad,
/// lane 0 or 3 in some), bit 3 the divergent quad branch (two quads in three).
fn flags(i: usize) -> u32 {
    let l = i % WORKGROUP;
    let quad = l / 4;
    let mut f = 0;
    if l < 32 || (l * 7) % 5 < 2 {
        f |= 1;
    }
    if l >= 40 && l % 7 == 0 {
        f |= 2;
    }
    let wave_active = match l % 4 {
        1 | 2 => true,
        0 => quad % 3 == 2,
        _ => quad % 2 == 0,
    };
    if wave_active {
        f |= 4;
    }
    if quad % 3 != 1 {
        f |= 8;
    }
    f
}

/// A lane index operand: a literal, or a dynamically uniform word of `Params`.
#[derive(Clone, Copy, Debug)]
enum LaneArg {
    Literal(u32),
    Param(usize),
}

impl LaneArg {
    fn hlsl(self) -> String {
        match self {
            LaneArg::Literal(l) => format!("{l}u"),
            LaneArg::Param(p) => format!("Params[{p}]"),
        }
    }

    fn value(self) -> u32 {
        match self {
            LaneArg::Literal(l) => l,
            LaneArg::Param(p) => PARAMS[p],
        }
    }
}

/// One intrinsic call of the shader, with its own result words.
#[derive(Clone, Copy, Debug)]
enum Call {
    LaneIndex,
    LaneCount,
    IsFirstLane,
    AnyTrue,
    AllTrue,
    Ballot,
    CountBits,
    PrefixCountBits,
    AllEqual,
    Active(Reduction, Input),
    Prefix(Reduction, Input),
    ReadLaneAt(LaneArg),
    ReadLaneFirst,
    QuadAcross(usize),
    QuadLaneAt(LaneArg),
}

impl Call {
    /// Every call made on operands of `ty`.
    fn all(ty: Ty) -> Vec<Call> {
        use Reduction::*;
        let mut calls = vec![
            Call::LaneIndex,
            Call::LaneCount,
            Call::IsFirstLane,
            Call::AnyTrue,
            Call::AllTrue,
            Call::Ballot,
            Call::CountBits,
            Call::PrefixCountBits,
            Call::AllEqual,
            Call::Active(Sum, Input::A),
            Call::Active(Product, Input::P),
            Call::Active(Min, Input::A),
            Call::Active(Max, Input::A),
        ];
        if ty.integer() {
            calls.extend([
                Call::Active(BitAnd, Input::B),
                Call::Active(BitOr, Input::A),
                Call::Active(BitXor, Input::A),
            ]);
        }
        calls.extend([
            Call::Prefix(Sum, Input::A),
            Call::Prefix(Product, Input::P),
            Call::ReadLaneAt(LaneArg::Literal(1)),
            Call::ReadLaneAt(LaneArg::Param(0)),
            Call::ReadLaneFirst,
            Call::QuadAcross(1),
            Call::QuadAcross(2),
            Call::QuadAcross(3),
            Call::QuadLaneAt(LaneArg::Literal(0)),
            Call::QuadLaneAt(LaneArg::Literal(1)),
            Call::QuadLaneAt(LaneArg::Literal(2)),
            Call::QuadLaneAt(LaneArg::Literal(3)),
            Call::QuadLaneAt(LaneArg::Param(1)),
        ]);
        calls
    }

    fn is_quad(self) -> bool {
        matches!(self, Call::QuadAcross(_) | Call::QuadLaneAt(_))
    }

    /// The HLSL call, on the locals `a`, `p`, `b`, `e` and `flags`.
    fn hlsl(self) -> String {
        let cond = "(flags & 1u) != 0u";
        let reduction = |r: Reduction| format!("{r:?}");
        match self {
            Call::LaneIndex => "WaveGetLaneIndex()".into(),
            Call::LaneCount => "WaveGetLaneCount()".into(),
            Call::IsFirstLane => "WaveIsFirstLane()".into(),
            Call::AnyTrue => "WaveActiveAnyTrue((flags & 2u) != 0u)".into(),
            Call::AllTrue => format!("WaveActiveAllTrue({cond})"),
            Call::Ballot => format!("WaveActiveBallot({cond})"),
            Call::CountBits => format!("WaveActiveCountBits({cond})"),
            Call::PrefixCountBits => format!("WavePrefixCountBits({cond})"),
            Call::AllEqual => "WaveActiveAllEqual(e)".into(),
            Call::Active(r, input) => format!("WaveActive{}({})", reduction(r), input.name()),
            Call::Prefix(r, input) => format!("WavePrefix{}({})", reduction(r), input.name()),
            Call::ReadLaneAt(lane) => format!("WaveReadLaneAt(a, {})", lane.hlsl()),
            Call::ReadLaneFirst => "WaveReadLaneFirst(a)".into(),
            Call::QuadAcross(1) => "QuadReadAcrossX(a)".into(),
            Call::QuadAcross(2) => "QuadReadAcrossY(a)".into(),
            Call::QuadAcross(_) => "QuadReadAcrossDiagonal(a)".into(),
            Call::QuadLaneAt(lane) => format!("QuadReadLaneAt(a, {})", lane.hlsl()),
        }
    }

    /// The HLSL type of the result, and how many words it takes.
    fn result(self, ty: Ty) -> (String, usize) {
        match self {
            Call::IsFirstLane | Call::AnyTrue | Call::AllTrue => ("bool".into(), 1),
            Call::LaneIndex | Call::LaneCount | Call::CountBits | Call::PrefixCountBits => {
                ("uint".into(), 1)
            }
            Call::Ballot => ("uint4".into(), 4),
            Call::AllEqual if ty.components == 1 => ("bool".into(), 1),
            Call::AllEqual => (format!("bool{}", ty.components), ty.components),
            _ => (ty.hlsl(), ty.components),
        }
    }

    /// How the result words are compared: as `ty`'s element for values, as uint
    /// otherwise.
    fn elem(self, ty: Ty) -> Elem {
        match self {
            Call::Active(..)
            | Call::Prefix(..)
            | Call::ReadLaneAt(_)
            | Call::ReadLaneFirst
            | Call::QuadAcross(_)
            | Call::QuadLaneAt(_) => ty.elem,
            _ => Elem::Uint,
        }
    }
}

/// The generated shader and where each call's words are.
struct Shader {
    text: String,
    /// Per call, its first word in the record.
    offsets: Vec<usize>,
    /// Words per invocation record.
    record: usize,
    /// The input buffers the shader declares.
    inputs: Vec<Input>,
}

fn shader(ty: Ty, flow: Flow, calls: &[Call]) -> Shader {
    let scalar = ty.elem.hlsl();
    let t = ty.hlsl();
    let mut inputs = vec![Input::A, Input::P, Input::E];
    if ty.integer() {
        inputs.push(Input::B);
    }
    let mut offsets = Vec::new();
    let mut record = HEADER;
    for &call in calls {
        offsets.push(record);
        record += call.result(ty).1;
    }
    let mut s = String::new();
    for (register, input) in inputs.iter().enumerate() {
        let _ = writeln!(
            s,
            "StructuredBuffer<{scalar}> {} : register(t{register});",
            input.buffer()
        );
    }
    let _ = writeln!(s, "StructuredBuffer<uint> Flags : register(t4);");
    let _ = writeln!(s, "StructuredBuffer<uint> Params : register(t5);");
    let _ = writeln!(s, "RWStructuredBuffer<uint> Out : register(u6);\n");
    let _ = writeln!(s, "[numthreads({WORKGROUP}, 1, 1)]");
    let _ = writeln!(s, "void main(uint3 id : SV_DispatchThreadID) {{");
    let _ = writeln!(s, "    uint idx = id.x;");
    let _ = writeln!(s, "    uint base = idx * {record}u;");
    let _ = writeln!(s, "    Out[base] = WaveReadLaneFirst(idx);");
    let _ = writeln!(s, "    Out[base + 1u] = WaveGetLaneIndex();");
    let _ = writeln!(s, "    Out[base + 2u] = WaveGetLaneCount();");
    let _ = writeln!(s, "    uint flags = Flags[idx];");
    let n = ty.components;
    for input in &inputs {
        let name = input.name();
        let buffer = input.buffer();
        if n == 1 {
            let _ = writeln!(s, "    {t} {name} = {buffer}[idx];");
        } else {
            let parts: Vec<String> = (0..n)
                .map(|c| format!("{buffer}[idx * {n}u + {c}u]"))
                .collect();
            let _ = writeln!(s, "    {t} {name} = {t}({});", parts.join(", "));
        }
    }
    if flow == Flow::Divergent {
        let _ = writeln!(
            s,
            "    for (uint i = {HEADER}u; i < {record}u; i++) {{ Out[base + i] = 0x{SENTINEL:X}u; }}"
        );
    }
    for quad in [false, true] {
        let indent = if flow == Flow::Divergent {
            let bit = if quad { 8 } else { 4 };
            let _ = writeln!(s, "    if ((flags & {bit}u) != 0u) {{");
            "        "
        } else {
            "    "
        };
        for (&call, &offset) in calls.iter().zip(&offsets) {
            if call.is_quad() != quad {
                continue;
            }
            let (result_ty, words) = call.result(ty);
            let _ = writeln!(s, "{indent}{{");
            let _ = writeln!(s, "{indent}    {result_ty} r = {};", call.hlsl());
            for k in 0..words {
                let component = if words == 1 {
                    "r".to_string()
                } else {
                    format!("r.{}", ["x", "y", "z", "w"][k])
                };
                let word = if result_ty.starts_with("bool") {
                    format!("({component} ? 1u : 0u)")
                } else {
                    format!("asuint({component})")
                };
                let _ = writeln!(s, "{indent}    Out[base + {}u] = {word};", offset + k);
            }
            let _ = writeln!(s, "{indent}}}");
        }
        if flow == Flow::Divergent {
            let _ = writeln!(s, "    }}");
        }
    }
    let _ = writeln!(s, "}}");
    Shader {
        text: s,
        offsets,
        record,
        inputs,
    }
}

/// The subgroups the device formed: per subgroup, the invocation at each lane index.
fn subgroups(out: &[u32], record: usize) -> Result<Vec<Vec<usize>>, String> {
    let mut groups: BTreeMap<u32, Vec<(u32, usize)>> = BTreeMap::new();
    for i in 0..INVOCATIONS {
        let word = |k: usize| out[i * record + k];
        groups.entry(word(0)).or_default().push((word(1), i));
    }
    let mut result = Vec::new();
    for (first, mut members) in groups {
        members.sort_unstable();
        let count = out[first as usize * record + 2] as usize;
        let lanes: Vec<u32> = members.iter().map(|m| m.0).collect();
        let expected: Vec<u32> = (0..count as u32).collect();
        if lanes != expected || count % 4 != 0 {
            return Err(format!(
                "the subgroup of invocation {first} has lanes {lanes:?}, but WaveGetLaneCount() is {count}"
            ));
        }
        if members[0].1 != first as usize {
            return Err(format!(
                "WaveReadLaneFirst(idx) in uniform control flow gave {first}, but lane 0 is invocation {}",
                members[0].1
            ));
        }
        for &(_, i) in &members {
            if out[i * record + 2] as usize != count {
                return Err(format!("invocation {i} reports a different lane count"));
            }
        }
        result.push(members.into_iter().map(|m| m.1).collect());
    }
    Ok(result)
}

/// The words the model expects from `call` on the lane at `lane` of `group`.
fn expected(
    call: Call,
    ty: Ty,
    group: &[usize],
    lane: usize,
    active: &dyn Fn(usize) -> bool,
) -> Result<Vec<u32>, String> {
    let values = |input: Input| Subgroup {
        lanes: group
            .iter()
            .map(|&i| {
                active(i).then(|| {
                    (0..ty.components)
                        .map(|c| input.value(ty.elem, i, c))
                        .collect::<Vec<u32>>()
                })
            })
            .collect(),
    };
    let condition = |bit: u32| Subgroup {
        lanes: group
            .iter()
            .map(|&i| active(i).then(|| flags(i) & bit != 0))
            .collect(),
    };
    let word = |b: bool| vec![b as u32];
    let size = group.len() as u32;
    Ok(match call {
        Call::LaneIndex => vec![lane as u32],
        Call::LaneCount => vec![size],
        Call::IsFirstLane => word(values(Input::A).is_first_lane(lane)),
        Call::AnyTrue => word(condition(2).any_true()),
        Call::AllTrue => word(condition(1).all_true()),
        Call::Ballot => condition(1).ballot().to_vec(),
        Call::CountBits => vec![condition(1).count_bits()],
        Call::PrefixCountBits => vec![condition(1).prefix_count_bits(lane)],
        Call::AllEqual => values(Input::E)
            .all_equal(ty.elem)
            .into_iter()
            .map(|b| b as u32)
            .collect(),
        Call::Active(r, input) => values(input).reduce(ty.elem, r),
        Call::Prefix(r, input) => values(input).prefix(ty.elem, r, lane, ty.components),
        Call::ReadLaneAt(l) => values(Input::A).read_lane_at(l.value())?,
        Call::ReadLaneFirst => values(Input::A).read_lane_first().ok_or("no active lane")?,
        Call::QuadAcross(mask) => values(Input::A).quad_read_across(lane, mask)?,
        Call::QuadLaneAt(l) => values(Input::A).quad_read_lane_at(lane, l.value())?,
    })
}

/// What one runtime computed, checked: the failures, the subgroup size it ran at, and
/// how many (call, lane) results matched.
struct Checked {
    failures: Vec<String>,
    subgroup_size: u32,
    matched: usize,
}

fn check(ty: Ty, flow: Flow, calls: &[Call], shader: &Shader, out: &[u32]) -> Checked {
    let groups = match subgroups(out, shader.record) {
        Ok(g) => g,
        Err(e) => {
            return Checked {
                failures: vec![e],
                subgroup_size: 0,
                matched: 0,
            }
        }
    };
    let subgroup_size = groups.first().map_or(0, |g| g.len() as u32);
    let mut failures = Vec::new();
    let mut matched = 0;
    for (&call, &offset) in calls.iter().zip(&shader.offsets) {
        let bit = if call.is_quad() { 8 } else { 4 };
        let active = |i: usize| flow == Flow::Uniform || flags(i) & bit != 0;
        let elem = call.elem(ty);
        let mut wrong = Vec::new();
        for group in &groups {
            for (lane, &i) in group.iter().enumerate() {
                let words = call.result(ty).1;
                let got = &out[i * shader.record + offset..][..words];
                let want = if active(i) {
                    match expected(call, ty, group, lane, &active) {
                        Ok(w) => w,
                        Err(e) => {
                            failures.push(format!(
                                "{}: the test asks for an undefined result: {e}",
                                call.hlsl()
                            ));
                            return Checked {
                                failures,
                                subgroup_size,
                                matched,
                            };
                        }
                    }
                } else {
                    vec![SENTINEL; words]
                };
                let same = got.len() == want.len()
                    && got.iter().zip(&want).all(|(&g, &w)| elem.same(g, w));
                if same {
                    matched += 1;
                } else {
                    let show = |v: &[u32]| {
                        v.iter()
                            .map(|&w| elem.show(w))
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    wrong.push(format!(
                        "lane {lane} (invocation {i}{}): got [{}], expected [{}]",
                        if active(i) { "" } else { ", inactive" },
                        show(got),
                        show(&want)
                    ));
                }
            }
        }
        if !wrong.is_empty() {
            let total = wrong.len();
            wrong.truncate(4);
            failures.push(format!(
                "{} on {} ({flow:?}): {total} lanes wrong, e.g. {}",
                call.hlsl(),
                ty.hlsl(),
                wrong.join("; ")
            ));
        }
    }
    Checked {
        failures,
        subgroup_size,
        matched,
    }
}

/// Generates, compiles, validates and runs the shader of (`ty`, `flow`) on every
/// selected runtime, and checks every lane of every call against the model.
fn prove(ty: Ty, flow: Flow) {
    let calls = Call::all(ty);
    let shader = shader(ty, flow, &calls);
    let name = format!("wave_{}_{flow:?}.hlsl", ty.hlsl());
    let compiled = compile_source_and_validate(&name, &shader.text, &CompileOptions::default());
    let mut buffers: Vec<(String, Vec<u8>)> = shader
        .inputs
        .iter()
        .map(|input| {
            let words: Vec<u32> = (0..INVOCATIONS)
                .flat_map(|i| (0..ty.components).map(move |c| input.value(ty.elem, i, c)))
                .collect();
            (input.buffer().to_string(), u32_bytes(&words))
        })
        .collect();
    let flag_words: Vec<u32> = (0..INVOCATIONS).map(flags).collect();
    buffers.push(("Flags".into(), u32_bytes(&flag_words)));
    buffers.push(("Params".into(), u32_bytes(&PARAMS)));
    buffers.push(("Out".into(), vec![0; INVOCATIONS * shader.record * 4]));
    let out_index = buffers.len() - 1;
    let mut failures = Vec::new();
    for runtime in Runtime::selected() {
        let output = match run(&compiled, runtime, &buffers, [WORKGROUPS as u32, 1, 1]) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{runtime:?}: {e}"));
                continue;
            }
        };
        let out = output.u32s(out_index).expect("Out");
        let checked = check(ty, flow, &calls, &shader, &out);
        eprintln!(
            "{name} on {runtime:?}: subgroup size {} (device reports {}), {} calls, {} lane results matched, {} calls wrong",
            checked.subgroup_size,
            output.device.subgroup_size,
            calls.len(),
            checked.matched,
            checked.failures.len()
        );
        for f in checked.failures {
            failures.push(format!(
                "{runtime:?} (subgroup size {}): {f}",
                checked.subgroup_size
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{name}:\n{}\n--- HLSL ---\n{}",
        failures.join("\n"),
        shader.text
    );
}

macro_rules! wave_tests {
    ($($name:ident: $elem:ident $components:literal $flow:ident;)*) => {
        $(
            #[test]
            fn $name() {
                prove(Ty { elem: Elem::$elem, components: $components }, Flow::$flow);
            }
        )*
    };
}

wave_tests! {
    int_uniform: Int 1 Uniform;
    int_divergent: Int 1 Divergent;
    int3_uniform: Int 3 Uniform;
    int3_divergent: Int 3 Divergent;
    uint_uniform: Uint 1 Uniform;
    uint_divergent: Uint 1 Divergent;
    uint4_uniform: Uint 4 Uniform;
    uint4_divergent: Uint 4 Divergent;
    float_uniform: Float 1 Uniform;
    float_divergent: Float 1 Divergent;
    float2_uniform: Float 2 Uniform;
    float2_divergent: Float 2 Divergent;
}
