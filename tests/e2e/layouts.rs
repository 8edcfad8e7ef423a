//! oneshader's pipeline layouts create real pipelines: every compute case of
//! `tests/cases/` and every compute entry point of the corpus (`tests/corpus/`) gets a
//! pipeline on lavapipe from its Vulkan descriptor set layouts (under the Khronos
//! validation layer) and on Dawn from its explicit WebGPU layout, and the same layouts
//! with one binding's type swapped are rejected by each.

use std::path::PathBuf;
use std::sync::Mutex;

use oneshader::{ProfileKind, WebGpuLayoutOptions};
use oneshader_e2e::corpus::{corpus_files, invocations};
use oneshader_e2e::{
    bind_resources, cases_dir, compile_and_validate, pipeline_layout, vulkan_push_constant_size,
    vulkan_set_layouts, BindingShape, Case, Compiled,
};
use oneshader_harness::{
    check_compute_pipeline_layout, run_wgsl_compute, BufferBinding, BufferKind, DawnDriver, Filter,
    SetLayoutDesc, TexelFormat, WgslJob,
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

/// The bindings with the first buffer swapped between storage and uniform (a typed
/// buffer, storage on WebGPU, made uniform; or the first
/// storage texture made a sampled one): the shader's declaration no longer matches the
/// layout Dawn builds from them. `None` when there is nothing to swap.
fn with_swapped_kind(bindings: &[BufferBinding]) -> Option<Vec<BufferBinding>> {
    let mut wrong = bindings.to_vec();
    wrong.iter_mut().find_map(|b| {
        b.kind = match b.kind {
            BufferKind::Storage | BufferKind::ReadOnlyStorage => BufferKind::Uniform,
            BufferKind::Uniform => BufferKind::Storage,
            // A typed buffer is a storage buffer on WebGPU.
            BufferKind::TexelBuffer { .. } => BufferKind::Uniform,
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
    })?;
    Some(wrong)
}

/// Our Vulkan set layouts (and push-constant range) give `compiled` a pipeline and the wrong-type variant is
/// rejected for its descriptor type; the failures, each naming `name`.
fn check_vulkan(name: &str, compiled: &Compiled) -> Vec<String> {
    let mut failures = Vec::new();
    let layouts = vulkan_set_layouts(compiled);
    let spirv = compiled.spirv();
    let push_constants = vulkan_push_constant_size(compiled);
    if let Err(e) = check_compute_pipeline_layout(&spirv, &compiled.entry, &layouts, push_constants)
    {
        failures.push(format!("{name}: our Vulkan layout was rejected: {e}"));
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
    failures
}

/// `bindings` (built from our WebGPU layout) run `compiled` on Dawn for one workgroup,
/// with the layout's required features, and the swapped-kind variant is rejected by
/// WebGPU validation; the failures, each naming `name`.
fn check_dawn(name: &str, compiled: &Compiled, bindings: &[BufferBinding]) -> Vec<String> {
    let mut failures = Vec::new();
    let features = pipeline_layout(compiled)
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
    if let Err(e) = run_wgsl_compute(&job(bindings.to_vec())) {
        failures.push(format!("{name}: our WebGPU layout was rejected: {e}"));
    }
    let Some(wrong) = with_swapped_kind(bindings) else {
        failures.push(format!("{name}: has no buffer or storage texture to swap"));
        return failures;
    };
    match run_wgsl_compute(&job(wrong)) {
        Ok(_) => failures.push(format!("{name}: a swapped buffer type was accepted")),
        Err(e) if !e.to_lowercase().contains("validation") => {
            failures.push(format!("{name}: rejected for another reason: {e}"))
        }
        Err(_) => {}
    }
    failures
}

#[test]
fn every_case_gets_a_vulkan_pipeline_from_our_set_layouts_and_a_wrong_one_is_rejected() {
    let mut failures = Vec::new();
    for name in Case::all_names() {
        let case = Case::load(&name).unwrap_or_else(|e| panic!("{e}"));
        let compiled = compile_and_validate(&cases_dir().join(&case.shader), &case.options());
        failures.extend(check_vulkan(&name, &compiled));
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
        failures.extend(check_dawn(
            &name,
            &compiled,
            &bind_resources(&compiled, &resources),
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The size of every dummy buffer of a corpus shader: WebGPU's default
/// `maxUniformBufferBindingSize`, and a whole number of texels of every format.
const DUMMY_BUFFER_SIZE: usize = 64 * 1024;

/// The width and height of every dummy texture of a corpus shader.
const DUMMY_TEXTURE_SIZE: u32 = 4;

/// How many corpus shaders are checked at once: most of the time goes to node.
const WORKERS: usize = 3;

/// Zero-filled resources for every binding of the compiled entry point, shaped as our
/// WebGPU layout says; `Err` names a resource the Dawn runner cannot bind (it binds
/// only 2D textures, and no comparison samplers).
fn dummy_resources(compiled: &Compiled) -> Result<Vec<(String, BindingShape, Vec<u8>)>, String> {
    let entry = compiled
        .reflection()
        .entry_point(&compiled.entry)
        .ok_or_else(|| format!("no reflection of {}", compiled.entry))?;
    entry
        .resources
        .iter()
        .map(|resource| {
            let name = resource.name.clone();
            let texture = match &resource.texture {
                Some(t) if t.view_dimension != "buffer" => t,
                _ if resource.comparison_sampler => {
                    return Err(format!("comparison sampler '{name}'"))
                }
                _ if resource.kind == oneshader::ResourceKind::Sampler => {
                    return Ok((name, BindingShape::Sampler(Filter::Linear), Vec::new()))
                }
                _ => return Ok((name, BindingShape::Buffer, vec![0; DUMMY_BUFFER_SIZE])),
            };
            if texture.view_dimension != "2d" || texture.multisampled {
                return Err(format!("'{name}' is a {} texture", texture.view_dimension));
            }
            let format = match (
                texture.storage_format.as_deref(),
                texture.sample_type.as_deref(),
            ) {
                (Some(storage), _) => TexelFormat::from_webgpu_name(storage),
                (None, Some("float")) => Some(TexelFormat::Rgba8Unorm),
                (None, Some("uint")) => Some(TexelFormat::Rgba32Uint),
                (None, Some("sint")) => Some(TexelFormat::R32Sint),
                _ => None,
            }
            .ok_or_else(|| format!("'{name}' has a texel format the Dawn runner lacks"))?;
            let size = DUMMY_TEXTURE_SIZE as usize;
            let shape = BindingShape::Texture {
                width: DUMMY_TEXTURE_SIZE,
                height: DUMMY_TEXTURE_SIZE,
                format,
            };
            Ok((name, shape, vec![0; size * size * format.texel_size()]))
        })
        .collect()
}

/// Every compute entry point the corpus compiles (`-T cs_…` header lines): the file,
/// the header line and the compile.
fn corpus_compute_shaders() -> Vec<(PathBuf, String, oneshader::CompileOptions)> {
    let mut found = Vec::new();
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let header = invocations(&path, &text).unwrap_or_else(|e| panic!("{e}"));
        for inv in header {
            if inv
                .options
                .profile
                .is_some_and(|p| p.kind == ProfileKind::Compute)
            {
                found.push((path.clone(), inv.line, inv.options));
            }
        }
    }
    found
}

/// Both checks of one corpus compute entry point: the failures, and why Dawn did not run
/// it when the Dawn runner cannot bind one of its resources.
fn check_corpus_shader(
    path: &std::path::Path,
    line: &str,
    options: &oneshader::CompileOptions,
) -> (Vec<String>, Option<String>) {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = format!("{file} [{line}]");
    // corpus.rs validates these outputs; here only the layouts are under test.
    let result = oneshader::compile_file(path, options);
    if !result.success() {
        return (vec![format!("{name}: does not compile")], None);
    }
    let entry = options.entry_point.clone().unwrap_or_default();
    let compiled = Compiled { result, entry };
    let mut failures = check_vulkan(&name, &compiled);
    let not_on_dawn = match dummy_resources(&compiled) {
        Ok(resources) => {
            let bindings = bind_resources(&compiled, &resources);
            failures.extend(check_dawn(&name, &compiled, &bindings));
            None
        }
        Err(why) => Some(format!("{name}: {why}")),
    };
    (failures, not_on_dawn)
}

#[test]
fn every_corpus_compute_shader_gets_pipelines_from_our_layouts_and_wrong_ones_are_rejected() {
    let shaders = corpus_compute_shaders();
    assert!(!shaders.is_empty(), "the corpus has no compute shader");
    let next = Mutex::new(shaders.iter());
    let failures = Mutex::new(Vec::new());
    let skipped_on_dawn = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                while let Some((path, line, options)) =
                    next.lock().map(|mut it| it.next()).ok().flatten()
                {
                    let (found, not_on_dawn) = check_corpus_shader(path, line, options);
                    if let Ok(mut all) = failures.lock() {
                        all.extend(found);
                    }
                    if let (Some(why), Ok(mut skipped)) = (not_on_dawn, skipped_on_dawn.lock()) {
                        skipped.push(why);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_default();
    assert!(
        failures.is_empty(),
        "{} failures over {} corpus compute shaders:\n\n{}",
        failures.len(),
        shaders.len(),
        failures.join("\n\n")
    );
    let skipped = skipped_on_dawn.into_inner().unwrap_or_default();
    eprintln!(
        "{} corpus compute shaders: pipelines on lavapipe for all, on Dawn for {}; the Dawn \
         runner cannot bind:\n  {}",
        shaders.len(),
        shaders.len() - skipped.len(),
        skipped.join("\n  ")
    );
}
