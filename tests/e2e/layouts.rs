//! oneshader's pipeline layouts create real pipelines: every compute case of
//! `tests/cases/` gets a pipeline on lavapipe from its Vulkan descriptor set layouts
//! (under the Khronos validation layer) and on Dawn from its explicit WebGPU layout,
//! and the same layouts with one binding's type swapped are rejected by each.

use oneshader::WebGpuLayoutOptions;
use oneshader_e2e::{
    bind_resources, cases_dir, compile_and_validate, pipeline_layout, vulkan_push_constant_size,
    vulkan_set_layouts, Case,
};
use oneshader_harness::{
    check_compute_pipeline_layout, run_wgsl_compute, BufferKind, DawnDriver, SetLayoutDesc, WgslJob,
};

const STORAGE_BUFFER: i32 = 7;
const UNIFORM_BUFFER: i32 = 6;
const SAMPLED_IMAGE: i32 = 2;
const STORAGE_IMAGE: i32 = 3;

/// The layouts with the first binding's descriptor type swapped for one the shader does
/// not declare there.
fn with_wrong_type(layouts: &[SetLayoutDesc]) -> Vec<SetLayoutDesc> {
    let mut wrong = layouts.to_vec();
    if let Some(binding) = wrong.iter_mut().flat_map(|s| &mut s.bindings).next() {
        binding.descriptor_type = match binding.descriptor_type {
            STORAGE_BUFFER => UNIFORM_BUFFER,
            UNIFORM_BUFFER => STORAGE_BUFFER,
            SAMPLED_IMAGE => STORAGE_IMAGE,
            _ => SAMPLED_IMAGE,
        };
    }
    wrong
}

#[test]
fn every_case_gets_a_vulkan_pipeline_from_our_set_layouts_and_a_wrong_one_is_rejected() {
    let mut failures = Vec::new();
    for name in Case::all_names() {
        let case = Case::load(&name).unwrap_or_else(|e| panic!("{e}"));
        let compiled = compile_and_validate(&cases_dir().join(&case.shader), &case.options());
        let layouts = vulkan_set_layouts(&compiled);
        let spirv = compiled.spirv();
        let push_constants = vulkan_push_constant_size(&compiled);
        if let Err(e) =
            check_compute_pipeline_layout(&spirv, &compiled.entry, &layouts, push_constants)
        {
            failures.push(format!("{name}: our layout was rejected: {e}"));
        }
        match check_compute_pipeline_layout(
            &spirv,
            &compiled.entry,
            &with_wrong_type(&layouts),
            push_constants,
        ) {
            Ok(()) => failures.push(format!("{name}: a wrong descriptor type was accepted")),
            Err(e) if !e.contains("VUID") && !e.contains("descriptor") => {
                failures.push(format!("{name}: rejected for another reason: {e}"))
            }
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_case_gets_a_dawn_pipeline_from_our_webgpu_layout_and_a_wrong_one_is_rejected() {
    let mut failures = Vec::new();
    for name in Case::all_names() {
        let case = Case::load(&name).unwrap_or_else(|e| panic!("{e}"));
        let compiled = compile_and_validate(&cases_dir().join(&case.shader), &case.options());
        let resources = case.resources().unwrap_or_else(|e| panic!("{e}"));
        let bindings = bind_resources(&compiled, &resources);
        let features = pipeline_layout(&compiled)
            .try_to_webgpu(&WebGpuLayoutOptions::default())
            .unwrap_or_else(|e| panic!("{e}"))
            .required_features;
        let job = |buffers| WgslJob {
            wgsl: compiled.text(oneshader::Target::Wgsl).to_string(),
            entry_point: compiled.entry.clone(),
            workgroups: [1, 1, 1],
            buffers,
            features: features.clone(),
            driver: DawnDriver::SwiftShader,
        };
        if let Err(e) = run_wgsl_compute(&job(bindings.clone())) {
            failures.push(format!("{name}: our layout was rejected: {e}"));
        }
        // Swap the first buffer between storage and uniform (or the first texture between
        // sampled and storage): the shader's declaration no longer matches the layout.
        let mut wrong = bindings.clone();
        let swapped = wrong.iter_mut().find_map(|b| {
            b.kind = match b.kind {
                // WebGPU binds a typed buffer as the storage buffer WGSL emulates it with.
                BufferKind::Storage
                | BufferKind::ReadOnlyStorage
                | BufferKind::TexelBuffer { .. } => BufferKind::Uniform,
                BufferKind::Uniform => BufferKind::Storage,
                BufferKind::StorageTexture {
                    width,
                    height,
                    format,
                    ..
                } => BufferKind::SampledTexture {
                    width,
                    height,
                    format,
                },
                _ => return None,
            };
            Some(())
        });
        if swapped.is_none() {
            failures.push(format!("{name}: has no buffer or storage texture to swap"));
            continue;
        }
        match run_wgsl_compute(&job(wrong)) {
            Ok(_) => failures.push(format!("{name}: a swapped buffer type was accepted")),
            Err(e) if !e.to_lowercase().contains("validation") => {
                failures.push(format!("{name}: rejected for another reason: {e}"))
            }
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
