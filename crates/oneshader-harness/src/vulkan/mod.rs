//! Running SPIR-V compute shaders and draws on Vulkan: lavapipe, SwiftShader, or the
//! system's driver.

mod dispatch;
mod driver;
mod layout_check;

pub use dispatch::{fence_timeout, DispatchTiming, FENCE_TIMEOUT, FENCE_TIMEOUT_ENV};
pub use driver::{VulkanDriver, LAVAPIPE_ICD_ENV, SWIFTSHADER_ICD_ENV};
pub use layout_check::{check_compute_pipeline_layout, SetLayoutBindingDesc, SetLayoutDesc};

use crate::job::{ComputeJob, ComputeOutput, DrawJob, DrawOutput};
use crate::spirv_scan::{scan, EXECUTION_MODEL_GL_COMPUTE};
use crate::spirv_val::spirv_val;

/// Validates `job.spirv`, then dispatches it once on `driver` with a fresh Vulkan 1.2 instance
/// and device, and returns every buffer's bytes afterwards.
///
/// Drivers may crash on invalid input, so the job is checked first: the module must pass
/// [`spirv_val`], have a `GLCompute` entry point named `job.entry_point`, and every
/// `(set, binding)` it decorates must have a buffer in `job.buffers`. The device is created
/// with every Vulkan 1.0–1.2 feature it supports and no extensions. Jobs share no Vulkan
/// objects, so any number may run on different threads at once. A dispatch that does not
/// finish within [`fence_timeout`] is an error (its device is leaked, not destroyed).
pub fn run_compute(driver: VulkanDriver, job: &ComputeJob) -> Result<ComputeOutput, String> {
    spirv_val(&job.spirv)?;
    check_interface(job)?;
    dispatch::run(driver, job).map_err(|e| format!("{driver:?}: {e}"))
}

/// Dispatches `job` `repetitions` times on `driver` with its buffers in device-local memory
/// and measures each dispatch with timestamp queries: the GPU time of the kernel, for
/// benchmarks (`examples/gpu_time_compact.rs`, docs/performance.md).
///
/// Every repetition starts from the job's initial buffers, so the output is what one
/// dispatch produces. Buffers only: no textures or samplers. The job's interface is checked
/// as in [`run_compute`], but the SPIR-V is not given to `spirv-val` (timing runs where the
/// tools may be absent): validate it with [`spirv_val`] first.
pub fn time_compute(
    driver: VulkanDriver,
    job: &ComputeJob,
    repetitions: u32,
) -> Result<DispatchTiming, String> {
    check_interface(job)?;
    dispatch::time(driver, job, repetitions).map_err(|e| format!("{driver:?}: {e}"))
}

/// Validates both modules with [`spirv_val`], then runs `job`'s draw once on `driver` with a
/// fresh Vulkan 1.2 instance and device and returns the render targets' texels and the
/// buffers' bytes afterwards. See [`DrawJob`] for the conventions (D3D's).
pub fn run_draw(driver: VulkanDriver, job: &DrawJob) -> Result<DrawOutput, String> {
    spirv_val(&job.vertex_spirv)?;
    spirv_val(&job.fragment_spirv)?;
    dispatch::draw(driver, job).map_err(|e| format!("{driver:?}: {e}"))
}

fn check_interface(job: &ComputeJob) -> Result<(), String> {
    let facts = scan(&job.spirv)?;
    let has_entry = facts
        .entry_points
        .iter()
        .any(|(model, name)| *model == EXECUTION_MODEL_GL_COMPUTE && *name == job.entry_point);
    if !has_entry {
        let names: Vec<&str> = facts.entry_points.iter().map(|(_, n)| n.as_str()).collect();
        return Err(format!(
            "the module has no compute entry point {:?}; its entry points: {names:?}",
            job.entry_point
        ));
    }
    for (set, binding) in facts.bindings {
        if !job
            .buffers
            .iter()
            .any(|b| b.set == set && b.binding == binding)
        {
            return Err(format!(
                "the shader declares set {set}, binding {binding}, but the job has no buffer there"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{BufferBinding, SubgroupOperations};
    use crate::test_shaders::{spirv_of, ATOMIC_SUM, DOUBLE_PLUS_INDEX, SUBGROUP_ADD_ONE};
    use ash::vk;

    const CPU_DRIVERS: [VulkanDriver; 2] = [VulkanDriver::Lavapipe, VulkanDriver::SwiftShader];

    fn double_plus_index_job(len: usize) -> (ComputeJob, Vec<f32>) {
        let input: Vec<f32> = (0..len).map(|i| i as f32 * 0.5 - 3.0).collect();
        let expected = input
            .iter()
            .enumerate()
            .map(|(i, x)| x * 2.0 + i as f32)
            .collect();
        let job = ComputeJob {
            spirv: spirv_of(DOUBLE_PLUS_INDEX),
            entry_point: "main".into(),
            workgroups: [len.div_ceil(64) as u32, 1, 1],
            push_constants: Vec::new(),
            buffers: vec![
                BufferBinding::read_only_f32(0, 0, &input),
                BufferBinding::storage_f32(0, 1, &vec![-1.0; len]),
            ],
        };
        (job, expected)
    }

    #[test]
    fn double_plus_index_runs_exactly_on_lavapipe_and_swiftshader() {
        let (job, expected) = double_plus_index_job(100);
        for driver in CPU_DRIVERS {
            let output = run_compute(driver, &job).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(output.f32s(1), Ok(expected.clone()), "{driver:?}");
            assert_eq!(
                output.bytes(0),
                Ok(job.buffers[0].data.as_slice()),
                "{driver:?}"
            );
        }
    }

    #[test]
    fn atomic_sum_over_two_sets_with_a_uniform_runs_on_both_drivers() {
        let values: Vec<u32> = (0..1000).map(|i| (i * 7919) % 101).collect();
        let threshold = 60;
        let above: Vec<u32> = values.iter().copied().filter(|&v| v > threshold).collect();
        let job = ComputeJob {
            spirv: spirv_of(ATOMIC_SUM),
            entry_point: "main".into(),
            workgroups: [values.len().div_ceil(32) as u32, 1, 1],
            push_constants: Vec::new(),
            buffers: vec![
                BufferBinding::uniform_u32(0, 0, &[threshold, 0, 0, 0]),
                BufferBinding::read_only_u32(0, 1, &values),
                BufferBinding::storage_u32(1, 0, &[5, 0]),
            ],
        };
        for driver in CPU_DRIVERS {
            let output = run_compute(driver, &job).unwrap_or_else(|e| panic!("{e}"));
            let sum: u32 = above.iter().sum();
            assert_eq!(
                output.u32s(2),
                Ok(vec![5 + sum, above.len() as u32]),
                "{driver:?}"
            );
        }
    }

    #[test]
    fn devices_report_their_subgroup_properties() {
        let (job, _) = double_plus_index_job(8);
        let lavapipe = run_compute(VulkanDriver::Lavapipe, &job).unwrap_or_else(|e| panic!("{e}"));
        let swiftshader =
            run_compute(VulkanDriver::SwiftShader, &job).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(lavapipe.device.subgroup_size, 8);
        assert_eq!(swiftshader.device.subgroup_size, 4);
        assert!(
            lavapipe.device.name.contains("llvmpipe"),
            "{}",
            lavapipe.device.name
        );
        assert!(
            swiftshader.device.name.contains("SwiftShader"),
            "{}",
            swiftshader.device.name
        );
        for device in [&lavapipe.device, &swiftshader.device] {
            let needed = SubgroupOperations::BASIC | SubgroupOperations::BALLOT;
            assert!(device.subgroup_operations.contains(needed), "{device:?}");
            assert!(device
                .subgroup_stages
                .contains(vk::ShaderStageFlags::COMPUTE));
            assert!(device.subgroup_min_size <= device.subgroup_size);
            assert!(device.subgroup_size <= device.subgroup_max_size);
        }
    }

    #[test]
    fn subgroup_add_measures_the_subgroup_size_each_driver_reports() {
        let invocations = 128;
        let job = ComputeJob {
            spirv: spirv_of(SUBGROUP_ADD_ONE),
            entry_point: "main".into(),
            workgroups: [2, 1, 1],
            push_constants: Vec::new(),
            buffers: vec![
                BufferBinding::zeroed_storage(0, 0, 4 * invocations),
                BufferBinding::zeroed_storage(0, 1, 4 * invocations),
            ],
        };
        for (driver, size) in [(VulkanDriver::Lavapipe, 8), (VulkanDriver::SwiftShader, 4)] {
            let output = run_compute(driver, &job).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(output.device.subgroup_size, size, "{driver:?}");
            assert_eq!(output.u32s(0), Ok(vec![size; invocations]), "{driver:?}");
            assert_eq!(output.u32s(1), Ok(vec![size; invocations]), "{driver:?}");
        }
    }

    #[test]
    fn system_loader_runs_the_job_on_whatever_device_it_finds() {
        // Here the loader finds lavapipe (installed by scripts/install-test-deps.sh); on a
        // machine with a GPU it picks the GPU. The outputs are exact either way.
        let (job, expected) = double_plus_index_job(100);
        let output = run_compute(VulkanDriver::System, &job).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(output.f32s(1), Ok(expected));
    }

    #[test]
    fn jobs_on_many_threads_and_both_drivers_at_once_stay_correct() {
        let threads: Vec<_> = (0..6)
            .map(|n| {
                std::thread::spawn(move || {
                    let (job, expected) = double_plus_index_job(64 * (n + 1));
                    let output = run_compute(CPU_DRIVERS[n % 2], &job);
                    output.and_then(|o| o.f32s(1)) == Ok(expected)
                })
            })
            .collect();
        for thread in threads {
            assert_eq!(thread.join().ok(), Some(true));
        }
    }

    #[test]
    fn timed_dispatches_give_the_outputs_of_one_dispatch_and_one_time_each() {
        let (job, expected) = double_plus_index_job(1000);
        let timing =
            time_compute(VulkanDriver::Lavapipe, &job, 3).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(timing.dispatch_ns.len(), 3);
        assert!(timing
            .dispatch_ns
            .iter()
            .all(|t| t.is_finite() && *t >= 0.0));
        assert_eq!(timing.output.f32s(1), Ok(expected));
        assert_eq!(timing.output.bytes(0), Ok(job.buffers[0].data.as_slice()));
    }

    #[test]
    fn every_timed_repetition_starts_from_the_initial_buffers() {
        // An atomic sum into a counter that starts at 5: after 4 repetitions it must hold
        // what one dispatch adds, not four times as much.
        let values: Vec<u32> = (0..256).map(|i| i % 97).collect();
        let sum: u32 = values.iter().filter(|&&v| v > 10).sum();
        let count = values.iter().filter(|&&v| v > 10).count() as u32;
        let job = ComputeJob {
            spirv: spirv_of(ATOMIC_SUM),
            entry_point: "main".into(),
            workgroups: [8, 1, 1],
            buffers: vec![
                BufferBinding::uniform_u32(0, 0, &[10, 0, 0, 0]),
                BufferBinding::read_only_u32(0, 1, &values),
                BufferBinding::storage_u32(1, 0, &[5, 0]),
            ],
            push_constants: Vec::new(),
        };
        let timing =
            time_compute(VulkanDriver::Lavapipe, &job, 4).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(timing.dispatch_ns.len(), 4);
        assert_eq!(timing.output.u32s(2), Ok(vec![5 + sum, count]));
    }

    #[test]
    fn timing_takes_buffers_only_and_at_least_one_repetition() {
        let (job, _) = double_plus_index_job(64);
        let err = time_compute(VulkanDriver::Lavapipe, &job, 0);
        assert!(err.is_err_and(|e| e.contains("at least one repetition")));
    }

    #[test]
    fn bad_jobs_are_errors_before_reaching_the_driver() {
        let (job, _) = double_plus_index_job(64);
        let wrong_entry = ComputeJob {
            entry_point: "nope".into(),
            ..job.clone()
        };
        let err = run_compute(VulkanDriver::Lavapipe, &wrong_entry);
        assert!(err.is_err_and(|e| e.contains("no compute entry point \"nope\"")));

        let mut missing_buffer = job.clone();
        missing_buffer.buffers.pop();
        let err = run_compute(VulkanDriver::Lavapipe, &missing_buffer);
        assert!(err.is_err_and(|e| e.contains("set 0, binding 1")));

        let mut invalid = job;
        invalid.spirv.truncate(invalid.spirv.len() - 3);
        let err = run_compute(VulkanDriver::SwiftShader, &invalid);
        assert!(err.is_err_and(|e| e.contains("spirv-val")));
    }
}
