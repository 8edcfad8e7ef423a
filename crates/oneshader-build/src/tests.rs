use std::path::PathBuf;

use super::*;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oneshader-build-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

#[test]
fn compact_becomes_a_module_with_its_outputs_and_layout() {
    let out = scratch("compact");
    let generated = Builder::new()
        .shader(repo_root().join("shaders/Compact.hlsl"))
        .cargo_instructions(false)
        .wgpu(true)
        .out_dir(&out)
        .build()
        .expect("Compact compiles");
    let text = std::fs::read_to_string(&generated.path).expect("the module was written");
    for expected in [
        "pub mod compact {",
        "pub mod cs_main {",
        "pub const ENTRY_POINT: &str = \"CSMain\";",
        "pub const WORKGROUP_SIZE: [u32; 3] = [64, 1, 1];",
        "pub const SUBGROUP_OPERATIONS: u32 = 0x9;",
        "pub const SUBGROUP_OPERATION_NAMES: &[&str] = &[\"Basic\", \"Ballot\"];",
        "pub static SPIRV: &[u32] = &[\n            0x07230203,",
        "pub const MSL_ENTRY_POINT: &str = \"CSMain\";",
        "pub const WGSL_ENTRY_POINT: &str = \"CSMain\";",
        "super::super::Binding { name: \"Values\", group: 0, binding: 0, msl_index: Some(0), ty: super::super::BindingType::StorageBuffer { read_only: true } },",
        "super::super::Binding { name: \"Kept\", group: 0, binding: 1, msl_index: Some(1), ty: super::super::BindingType::StorageBuffer { read_only: false } },",
        "pub const REQUIRED_FEATURES: &[&str] = &[\"subgroups\"];",
        "wgpu::Features::SUBGROUP",
        "pub unsafe fn create_shader_module_passthrough(device: &wgpu::Device) -> wgpu::ShaderModule {",
        "spirv: Some(SPIRV.into()),",
    ] {
        assert!(text.contains(expected), "missing `{expected}` in\n{text}");
    }
    assert_eq!(generated.dependencies.len(), 1);
}

#[test]
fn includes_are_dependencies_and_defines_reach_the_shader() {
    let dir = scratch("include");
    std::fs::write(dir.join("common.hlsli"), "#define WIDTH WG\n").expect("write");
    std::fs::write(
        dir.join("fill.hlsl"),
        "#include \"common.hlsli\"\nRWStructuredBuffer<uint> Out : register(u0);\n\
         [shader(\"compute\")] [numthreads(WIDTH, 1, 1)] void Fill(uint3 id : SV_DispatchThreadID) { Out[id.x] = id.x; }\n",
    )
    .expect("write");
    let generated = Builder::new()
        .shader(dir.join("fill.hlsl"))
        .targets(&[Target::Wgsl])
        .define("WG", "32")
        .cargo_instructions(false)
        .out_dir(&dir)
        .build()
        .expect("fill.hlsl compiles");
    assert!(generated.dependencies.contains(&dir.join("fill.hlsl")));
    assert!(
        generated
            .dependencies
            .iter()
            .any(|d| d.ends_with("common.hlsli")),
        "{:?}",
        generated.dependencies
    );
    let text = std::fs::read_to_string(&generated.path).expect("written");
    assert!(text.contains("pub const WORKGROUP_SIZE: [u32; 3] = [32, 1, 1];"));
    assert!(text.contains("pub const WGSL: &str"));
    assert!(
        !text.contains("pub static SPIRV"),
        "only the WGSL target was asked for"
    );
}

#[test]
fn an_error_fails_the_build_with_the_diagnostic_and_writes_nothing() {
    let dir = scratch("error");
    std::fs::write(
        dir.join("broken.hlsl"),
        "[shader(\"compute\")] [numthreads(1, 1, 1)] void Main() { undefined_name = 1; }\n",
    )
    .expect("write");
    let error = Builder::new()
        .shader(dir.join("broken.hlsl"))
        .cargo_instructions(false)
        .out_dir(&dir)
        .build()
        .expect_err("an unknown identifier is an error");
    let Error::Compile { diagnostics } = &error else {
        panic!("not a compile error: {error}");
    };
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert!(
        diagnostics[0].contains("broken.hlsl(1,") && diagnostics[0].contains(": error OSH"),
        "{diagnostics:?}"
    );
    assert!(
        format!("{error:?}").contains("error OSH"),
        "unwrap shows the diagnostic"
    );
    assert!(!dir.join("shaders.rs").exists());
}

#[test]
fn two_files_with_one_module_name_are_an_error() {
    let dir = scratch("duplicate");
    let source = "RWStructuredBuffer<uint> Out : register(u0);\n\
                  [shader(\"compute\")] [numthreads(1, 1, 1)] void Main() { Out[0] = 1; }\n";
    std::fs::create_dir_all(dir.join("a")).expect("mkdir");
    std::fs::write(dir.join("a/Blur.hlsl"), source).expect("write");
    std::fs::write(dir.join("blur.hlsl"), source).expect("write");
    let error = Builder::new()
        .shader(dir.join("a/Blur.hlsl"))
        .shader(dir.join("blur.hlsl"))
        .cargo_instructions(false)
        .out_dir(&dir)
        .build()
        .expect_err("both are `blur`");
    assert!(
        matches!(error, Error::DuplicateModule { ref module, .. } if module == "blur"),
        "{error}"
    );
}

#[test]
fn an_unknown_profile_is_an_error() {
    let error = Builder::new()
        .shader_entry(repo_root().join("shaders/Compact.hlsl"), "CSMain", "xs_9_9")
        .cargo_instructions(false)
        .out_dir(scratch("profile"))
        .build()
        .expect_err("xs_9_9 is no profile");
    assert!(matches!(error, Error::Profile { .. }), "{error}");
}
