//! naga's side of the in-process comparison, shared by the criterion bench `compile` and
//! the `in_process` example (each includes this file with `#[path]`).

/// Our WGSL as naga 30 takes it. naga rejects WGSL's `enable subgroups;` directive (and
/// accepts subgroup operations without it), and it has no `subgroupElect()`: that call
/// becomes `subgroupAll(true)`, a subgroup call of the same shape and type, so that naga
/// parses, validates and writes the whole module (it is compiled, never run).
pub fn naga_input(wgsl: &str) -> String {
    wgsl.replace("enable subgroups;\n", "")
        .replace("subgroupElect()", "subgroupAll(true)")
}

/// What naga does for the same job: parse and validate WGSL, write SPIR-V and MSL.
pub fn naga_compile(wgsl: &str) -> Result<(Vec<u32>, String), String> {
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.to_string())?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| format!("{e:?}"))?;
    let spv_options = naga::back::spv::Options {
        lang_version: (1, 3),
        ..naga::back::spv::Options::default()
    };
    let spirv = naga::back::spv::write_vec(&module, &info, &spv_options, None)
        .map_err(|e| e.to_string())?;
    let msl_options = naga::back::msl::Options {
        lang_version: (2, 4),
        ..naga::back::msl::Options::default()
    };
    let pipeline = naga::back::msl::PipelineOptions::default();
    let (msl, _) = naga::back::msl::write_string(&module, &info, &msl_options, &pipeline)
        .map_err(|e| e.to_string())?;
    Ok((spirv, msl))
}
