//! Running and validating WGSL on WebGPU: Dawn (the npm `webgpu` package) in a node child
//! process, on a CPU Vulkan driver ([`DawnDriver`]): SwiftShader, or Mesa 25's lavapipe unpacked
//! beside the system's Mesa. The driver is chosen through the child's environment only.
//!
//! The child gets the job as JSON on stdin and answers with one `ONESHADER_RESULT <json>` line
//! on stdout (see `node/runner.mjs`). Each call starts its own node process, so calls share
//! nothing and may run on many threads at once.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::job::{
    check_buffers, BufferKind, ComputeOutput, DawnDriver, DeviceInfo, DrawOutput, ShaderStages,
    SubgroupOperations, WgslDrawJob, WgslJob,
};
use crate::process::{run_with_limit, INSTALL_HINT};
use crate::vulkan::VulkanDriver;

/// The longest one node run (start, compile, dispatch, read back) may take before it is killed.
pub const NODE_TIMEOUT: Duration = Duration::from_secs(120);

/// Overrides the `node` executable the harness runs.
pub const NODE_ENV: &str = "ONESHADER_NODE";

/// Overrides the ICD manifest of Mesa 25's lavapipe ([`DawnDriver::Mesa25Lavapipe`]).
pub const MESA25_LAVAPIPE_ICD_ENV: &str = "ONESHADER_MESA25_LAVAPIPE_ICD";

/// Where `scripts/install-mesa25-lavapipe.sh` writes the ICD manifest of Mesa 25's lavapipe; the
/// libraries it needs beyond the system's lie in `lib/` beside it.
const MESA25_LAVAPIPE_ICD_JSON: &str = "/opt/oneshader/mesa25/lvp_icd.json";

const RESULT_MARKER: &str = "ONESHADER_RESULT ";

impl DawnDriver {
    /// The driver's ICD manifest (JSON). SwiftShader's is [`VulkanDriver::SwiftShader`]'s;
    /// Mesa 25's lavapipe's is `/opt/oneshader/mesa25/lvp_icd.json`, or
    /// [`MESA25_LAVAPIPE_ICD_ENV`]'s value.
    pub fn icd_manifest(self) -> Result<PathBuf, String> {
        let manifest = match self {
            DawnDriver::SwiftShader => VulkanDriver::SwiftShader
                .icd_manifest()
                .ok_or("SwiftShader has no ICD manifest")?,
            DawnDriver::Mesa25Lavapipe => std::env::var_os(MESA25_LAVAPIPE_ICD_ENV)
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(MESA25_LAVAPIPE_ICD_JSON)),
        };
        if manifest.exists() {
            Ok(manifest)
        } else {
            Err(format!(
                "the ICD manifest {} of {self:?} is missing: {INSTALL_HINT}",
                manifest.display()
            ))
        }
    }

    /// The folder of libraries the driver needs ahead of the system's, if any: Mesa 25's
    /// lavapipe links a newer libdrm than Debian 12 has, unpacked into `lib/` beside its manifest.
    fn library_dir(self, manifest: &Path) -> Option<PathBuf> {
        match self {
            DawnDriver::SwiftShader => None,
            DawnDriver::Mesa25Lavapipe => manifest.parent().map(|dir| dir.join("lib")),
        }
    }
}

/// Runs a WGSL compute job on Dawn and returns every buffer's bytes afterwards.
///
/// The device is created with exactly `job.features` (e.g. `"subgroups"`); the pipeline layout
/// is built from `job.buffers` (never `layout: 'auto'`), one bind group per set up to the highest
/// set used. Compilation and WebGPU validation errors come back with Dawn's messages.
pub fn run_wgsl_compute(job: &WgslJob) -> Result<ComputeOutput, String> {
    check_buffers(&job.buffers)?;
    let request = Request {
        mode: "run",
        wgsl: &job.wgsl,
        entry_point: &job.entry_point,
        workgroups: job.workgroups,
        features: &job.features,
        buffers: job.buffers.iter().map(request_buffer).collect(),
        draw: None,
    };
    let response = run_node(&request, job.driver)?;
    let device = response
        .device
        .ok_or("the node runner returned no device description")?;
    let buffers = response
        .buffers
        .iter()
        .map(|b| {
            BASE64
                .decode(b)
                .map_err(|e| format!("bad base64 from node: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if buffers.len() != job.buffers.len() {
        return Err(format!(
            "the node runner returned {} buffers for {}",
            buffers.len(),
            job.buffers.len()
        ));
    }
    Ok(ComputeOutput {
        buffers,
        device: device.into_info(),
    })
}

/// Runs `job`'s draw on Dawn (the `webgpu` package, over `job.driver`) and returns the render
/// targets' texels (rows from the top, unpadded) and the buffers' bytes afterwards.
pub fn run_wgsl_draw(job: &WgslDrawJob) -> Result<DrawOutput, String> {
    check_buffers(&job.buffers)?;
    let request = Request {
        mode: "draw",
        wgsl: &job.vertex_wgsl,
        entry_point: &job.vertex_entry,
        workgroups: [0; 3],
        features: &[],
        buffers: job.buffers.iter().map(request_buffer).collect(),
        draw: Some(RequestDraw {
            fragment_wgsl: &job.fragment_wgsl,
            fragment_entry: &job.fragment_entry,
            width: job.width,
            height: job.height,
            targets: job.targets.iter().map(|f| f.webgpu_name()).collect(),
            vertex_count: job.vertex_count,
            instance_count: job.instance_count,
        }),
    };
    let response = run_node(&request, job.driver)?;
    let device = response
        .device
        .ok_or("the node runner returned no device description")?;
    let decode = |list: &[String]| {
        list.iter()
            .map(|b| {
                BASE64
                    .decode(b)
                    .map_err(|e| format!("bad base64 from node: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let buffers = decode(&response.buffers)?;
    let targets = decode(&response.targets)?;
    if buffers.len() != job.buffers.len() || targets.len() != job.targets.len() {
        return Err(format!(
            "the node runner returned {} buffers and {} targets for {} and {}",
            buffers.len(),
            targets.len(),
            job.buffers.len(),
            job.targets.len()
        ));
    }
    Ok(DrawOutput {
        targets,
        buffers,
        device: device.into_info(),
    })
}

/// Checks that Dawn compiles `wgsl` (`createShaderModule` and `getCompilationInfo`) on a device
/// with every feature the adapter offers (on SwiftShader); the error lists each message as
/// `line:column: error: text`.
pub fn validate_wgsl(wgsl: &str) -> Result<(), String> {
    let request = Request {
        mode: "validate",
        wgsl,
        entry_point: "",
        workgroups: [0; 3],
        features: &[],
        buffers: Vec::new(),
        draw: None,
    };
    run_node(&request, DawnDriver::SwiftShader).map(|_| ())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Request<'a> {
    mode: &'static str,
    wgsl: &'a str,
    entry_point: &'a str,
    workgroups: [u32; 3],
    features: &'a [String],
    buffers: Vec<RequestBuffer>,
    /// A draw's pixel shader, entry point, target size and formats, and counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    draw: Option<RequestDraw<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RequestDraw<'a> {
    fragment_wgsl: &'a str,
    fragment_entry: &'a str,
    width: u32,
    height: u32,
    targets: Vec<&'static str>,
    vertex_count: u32,
    instance_count: u32,
}

/// A binding as the node runner reads it: a buffer, texture or sampler.
fn request_buffer(b: &crate::job::BufferBinding) -> RequestBuffer {
    let mut request = RequestBuffer {
        set: b.set,
        binding: b.binding,
        kind: "",
        data: BASE64.encode(&b.data),
        width: 0,
        height: 0,
        format: "",
        access: "",
        filter: "",
    };
    match b.kind {
        BufferKind::Storage | BufferKind::TexelBuffer { write: true, .. } => {
            request.kind = "storage"
        }
        BufferKind::TexelBuffer { write: false, .. } => request.kind = "read-only-storage",
        BufferKind::ReadOnlyStorage => request.kind = "read-only-storage",
        BufferKind::Uniform => request.kind = "uniform",
        BufferKind::SampledTexture {
            width,
            height,
            format,
        } => {
            request.kind = "sampled-texture";
            (request.width, request.height) = (width, height);
            request.format = format.webgpu_name();
        }
        BufferKind::StorageTexture {
            width,
            height,
            format,
            read,
            write,
        } => {
            request.kind = "storage-texture";
            (request.width, request.height) = (width, height);
            request.format = format.webgpu_name();
            request.access = match (read, write) {
                (true, true) => "read-write",
                (true, false) => "read-only",
                _ => "write-only",
            };
        }
        BufferKind::Sampler { filter } => {
            request.kind = "sampler";
            request.filter = match filter {
                crate::job::Filter::Point => "nearest",
                crate::job::Filter::Linear => "linear",
            };
        }
    }
    request
}

#[derive(Serialize)]
struct RequestBuffer {
    set: u32,
    binding: u32,
    kind: &'static str,
    data: String,
    width: u32,
    height: u32,
    format: &'static str,
    access: &'static str,
    filter: &'static str,
}

#[derive(Deserialize)]
struct Response {
    ok: bool,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    buffers: Vec<String>,
    #[serde(default)]
    targets: Vec<String>,
    #[serde(default)]
    device: Option<ResponseDevice>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResponseDevice {
    name: String,
    subgroup_min_size: u32,
    subgroup_max_size: u32,
    features: Vec<String>,
}

impl ResponseDevice {
    fn into_info(self) -> DeviceInfo {
        let has_subgroups = self.features.iter().any(|f| f == "subgroups");
        let (operations, stages) = if has_subgroups {
            (
                SubgroupOperations::BASIC
                    | SubgroupOperations::VOTE
                    | SubgroupOperations::ARITHMETIC
                    | SubgroupOperations::BALLOT
                    | SubgroupOperations::SHUFFLE
                    | SubgroupOperations::SHUFFLE_RELATIVE
                    | SubgroupOperations::QUAD,
                ShaderStages::COMPUTE | ShaderStages::FRAGMENT,
            )
        } else {
            (SubgroupOperations::empty(), ShaderStages::empty())
        };
        DeviceInfo {
            name: self.name,
            subgroup_size: self.subgroup_min_size,
            subgroup_min_size: self.subgroup_min_size,
            subgroup_max_size: self.subgroup_max_size,
            subgroup_operations: operations,
            subgroup_stages: stages,
        }
    }
}

/// The folder of the node runner and its `node_modules`.
fn node_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("node")
}

fn run_node(request: &Request<'_>, driver: DawnDriver) -> Result<Response, String> {
    let dir = node_dir();
    if !dir.join("node_modules/webgpu/package.json").exists() {
        return Err(format!(
            "the npm package `webgpu` is not installed in {}: {INSTALL_HINT}",
            dir.display()
        ));
    }
    let manifest = driver.icd_manifest()?;
    let input = serde_json::to_vec(request).map_err(|e| format!("encoding the job: {e}"))?;

    let node = std::env::var_os(NODE_ENV).unwrap_or_else(|| "node".into());
    let mut command = Command::new(node);
    command
        .arg(dir.join("runner.mjs"))
        .current_dir(&dir)
        // Only the child's environment changes: Dawn's Vulkan loader sees this driver alone.
        .env("VK_ICD_FILENAMES", &manifest)
        .env("VK_DRIVER_FILES", &manifest);
    if let Some(dir) = driver.library_dir(&manifest) {
        let mut paths = vec![dir];
        if let Some(inherited) = std::env::var_os("LD_LIBRARY_PATH") {
            paths.extend(std::env::split_paths(&inherited));
        }
        let joined = std::env::join_paths(paths)
            .map_err(|e| format!("{driver:?}'s library folder cannot join LD_LIBRARY_PATH: {e}"))?;
        command.env("LD_LIBRARY_PATH", joined);
    }
    let finished = run_with_limit(command, &input, NODE_TIMEOUT)?;
    let line = finished
        .stdout
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix(RESULT_MARKER));
    let Some(line) = line else {
        return Err(format!(
            "the node runner gave no result ({})\nstdout:\n{}\nstderr:\n{}",
            finished.status, finished.stdout, finished.stderr
        ));
    };
    let response: Response =
        serde_json::from_str(line).map_err(|e| format!("bad result from the node runner: {e}"))?;
    if response.ok {
        Ok(response)
    } else {
        Err(response
            .error
            .unwrap_or_else(|| "the node runner failed without a message".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::BufferBinding;
    use crate::test_shaders::{ATOMIC_SUM, DOUBLE_PLUS_INDEX, SUBGROUP_ADD_ONE};

    /// [`SUBGROUP_ADD_ONE`] with the `enable` directive that WGSL requires (and naga lacks).
    fn subgroup_add_one() -> String {
        format!("enable subgroups;\n{SUBGROUP_ADD_ONE}")
    }

    fn job(wgsl: &str, workgroups: u32, buffers: Vec<BufferBinding>) -> WgslJob {
        WgslJob {
            wgsl: wgsl.into(),
            entry_point: "main".into(),
            workgroups: [workgroups, 1, 1],
            buffers,
            features: Vec::new(),
            driver: DawnDriver::SwiftShader,
        }
    }

    /// Every driver Dawn runs on, with its subgroup size.
    const DRIVERS: [(DawnDriver, u32); 2] = [
        (DawnDriver::SwiftShader, 4),
        (DawnDriver::Mesa25Lavapipe, 8),
    ];

    #[test]
    fn double_plus_index_runs_exactly_on_dawn() {
        let input: Vec<f32> = (0..100).map(|i| i as f32 * 0.5 - 3.0).collect();
        let expected: Vec<f32> = input
            .iter()
            .enumerate()
            .map(|(i, x)| x * 2.0 + i as f32)
            .collect();
        for (driver, _) in DRIVERS {
            let buffers = vec![
                BufferBinding::read_only_f32(0, 0, &input),
                BufferBinding::storage_f32(0, 1, &[-1.0; 100]),
            ];
            let mut double_job = job(DOUBLE_PLUS_INDEX, 2, buffers);
            double_job.driver = driver;
            let output = run_wgsl_compute(&double_job);
            let output = output.unwrap_or_else(|e| panic!("{driver:?}: {e}"));
            assert_eq!(output.f32s(1), Ok(expected.clone()), "{driver:?}");
            assert_eq!(output.f32s(0), Ok(input.clone()), "{driver:?}");
        }
    }

    #[test]
    fn atomic_sum_over_two_groups_with_a_uniform_runs_on_dawn() {
        let values: Vec<u32> = (0..1000).map(|i| (i * 7919) % 101).collect();
        let above: Vec<u32> = values.iter().copied().filter(|&v| v > 60).collect();
        let buffers = vec![
            BufferBinding::uniform_u32(0, 0, &[60, 0, 0, 0]),
            BufferBinding::read_only_u32(0, 1, &values),
            BufferBinding::storage_u32(1, 0, &[5, 0]),
        ];
        let output = run_wgsl_compute(&job(ATOMIC_SUM, 32, buffers));
        let output = output.unwrap_or_else(|e| panic!("{e}"));
        let sum: u32 = above.iter().sum();
        assert_eq!(output.u32s(2), Ok(vec![5 + sum, above.len() as u32]));
        // Without the `subgroups` feature, the device reports no subgroup operations.
        assert!(output.device.subgroup_operations.is_empty());
    }

    #[test]
    fn subgroup_add_equals_the_reported_subgroup_size() {
        let invocations = 128;
        for (driver, size) in DRIVERS {
            let mut subgroup_job = job(
                &subgroup_add_one(),
                2,
                vec![
                    BufferBinding::zeroed_storage(0, 0, 4 * invocations),
                    BufferBinding::zeroed_storage(0, 1, 4 * invocations),
                ],
            );
            subgroup_job.features = vec!["subgroups".into()];
            subgroup_job.driver = driver;
            let output = run_wgsl_compute(&subgroup_job).unwrap_or_else(|e| panic!("{e}"));
            let device = &output.device;
            assert_eq!(
                device.subgroup_min_size, device.subgroup_max_size,
                "{device:?}"
            );
            assert_eq!(device.subgroup_size, size, "{driver:?}: {device:?}");
            // The shader's `subgroup_size` builtin and `subgroupAdd(1)` agree with the adapter.
            let expected = vec![size; invocations];
            assert_eq!(output.u32s(0), Ok(expected.clone()), "{driver:?}");
            assert_eq!(output.u32s(1), Ok(expected), "{driver:?}");
            assert!(device
                .subgroup_operations
                .contains(SubgroupOperations::ARITHMETIC));
        }
    }

    #[test]
    fn mesa25_lavapipe_is_the_device_dawn_runs_on() {
        let buffers = vec![
            BufferBinding::read_only_f32(0, 0, &[1.0; 4]),
            BufferBinding::storage_f32(0, 1, &[0.0; 4]),
        ];
        let mut lavapipe_job = job(DOUBLE_PLUS_INDEX, 1, buffers);
        lavapipe_job.driver = DawnDriver::Mesa25Lavapipe;
        let output = run_wgsl_compute(&lavapipe_job).unwrap_or_else(|e| panic!("{e}"));
        let name = &output.device.name;
        assert!(name.contains("Mesa 25"), "{name}");
    }

    #[test]
    fn subgroup_shader_without_the_feature_is_an_error() {
        let buffers = vec![
            BufferBinding::zeroed_storage(0, 0, 256),
            BufferBinding::zeroed_storage(0, 1, 256),
        ];
        let result = run_wgsl_compute(&job(&subgroup_add_one(), 1, buffers));
        assert!(result.is_err_and(|e| e.contains("subgroups")));
    }

    #[test]
    fn layout_that_does_not_match_the_shader_is_a_validation_error() {
        // The shader reads binding 0 as read-only storage; the job binds a uniform there.
        let buffers = vec![
            BufferBinding::uniform_f32(0, 0, &[0.0; 4]),
            BufferBinding::storage_f32(0, 1, &[0.0; 4]),
        ];
        let result = run_wgsl_compute(&job(DOUBLE_PLUS_INDEX, 1, buffers));
        assert!(result.is_err_and(|e| e.contains("validation")));
    }

    #[test]
    fn validate_wgsl_accepts_good_shaders_and_reports_errors_with_positions() {
        assert_eq!(validate_wgsl(DOUBLE_PLUS_INDEX), Ok(()));
        assert_eq!(validate_wgsl(&subgroup_add_one()), Ok(()));
        let broken = "@compute @workgroup_size(1)\nfn main() {\n    let x: u32 = 1.5;\n}\n";
        let error = validate_wgsl(broken).expect_err("a float is no u32");
        assert!(error.contains("3:"), "the message names line 3: {error}");
        assert!(error.contains("error"), "{error}");
    }
}
