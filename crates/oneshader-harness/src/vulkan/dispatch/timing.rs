//! GPU time of a compute dispatch, measured with Vulkan timestamp queries.
//!
//! Unlike a test dispatch, the shader's buffers live in device-local memory, so the time is
//! the kernel's and not the bus's: each buffer's initial contents go from a host-visible
//! staging buffer into a device-local "pristine" copy once; before every repetition the
//! pristine copy is copied into the working buffer the shader binds, so each repetition
//! starts from the job's initial buffers (a counter an atomic advances starts again at its
//! initial value). Timestamps bracket the dispatch alone, after a barrier that waits for
//! those copies.

use std::ffi::CString;

use ash::vk;

use super::{
    check_workgroups, choose_physical_device, describe, vk_error, Bound, DeviceScope, InstanceScope,
};
use crate::job::{check_buffers, BufferKind, ComputeJob, ComputeOutput};
use crate::vulkan::driver::VulkanDriver;

/// The GPU times of repeated dispatches of one job, and the buffers after the last one.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchTiming {
    /// The time of each repetition's dispatch in nanoseconds, in order.
    pub dispatch_ns: Vec<f64>,
    /// Every buffer after the last repetition (each repetition starts from the job's
    /// initial buffers, so this is what one dispatch produces), and the device.
    pub output: ComputeOutput,
}

impl DispatchTiming {
    /// The median of [`DispatchTiming::dispatch_ns`].
    pub fn median_ns(&self) -> f64 {
        let mut sorted = self.dispatch_ns.clone();
        sorted.sort_by(f64::total_cmp);
        match sorted.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => sorted[n / 2],
            n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
        }
    }
}

/// The buffers of one binding: the working copy the shader binds, its pristine initial
/// contents (both device-local) and the host-visible staging buffer.
struct TimedBuffer {
    working: vk::Buffer,
    pristine: vk::Buffer,
    staging: vk::Buffer,
    staging_memory: vk::DeviceMemory,
    size: vk::DeviceSize,
}

/// Dispatches `job` `repetitions` times on `driver` and measures each dispatch on the GPU.
/// Buffers only (no textures or samplers). The SPIR-V is not validated here: validate it
/// with [`crate::spirv_val`] first.
pub(crate) fn time(
    driver: VulkanDriver,
    job: &ComputeJob,
    repetitions: u32,
) -> Result<DispatchTiming, String> {
    check_buffers(&job.buffers)?;
    if repetitions == 0 {
        return Err("time_compute needs at least one repetition".into());
    }
    if let Some(b) = job.buffers.iter().find(|b| {
        !matches!(
            b.kind,
            BufferKind::Storage | BufferKind::ReadOnlyStorage | BufferKind::Uniform
        )
    }) {
        return Err(format!(
            "time_compute takes buffers only; set {}, binding {} is a {:?}",
            b.set, b.binding, b.kind
        ));
    }
    let entry_point = CString::new(job.entry_point.as_str())
        .map_err(|_| format!("entry point name {:?} contains NUL", job.entry_point))?;
    let entry = driver.entry()?;
    let instance = InstanceScope::create(&entry)?;
    let chosen = choose_physical_device(&instance.instance)?;
    check_workgroups(job.workgroups, &chosen.properties.limits)?;
    // SAFETY: a plain query on a live physical device.
    let families = unsafe {
        instance
            .instance
            .get_physical_device_queue_family_properties(chosen.physical)
    };
    let valid_bits = families
        .get(chosen.queue_family as usize)
        .map_or(0, |f| f.timestamp_valid_bits);
    if valid_bits == 0 {
        return Err("the compute queue does not support timestamps".into());
    }
    let period_ns = f64::from(chosen.properties.limits.timestamp_period);
    let device_info = describe(&chosen);
    let mut device = DeviceScope::create(&instance.instance, &chosen)?;
    // SAFETY: a plain query on a live physical device.
    let memory_properties = unsafe {
        instance
            .instance
            .get_physical_device_memory_properties(chosen.physical)
    };

    device.create_pipeline(job, &entry_point)?;
    let mut timed = Vec::new();
    for binding in &job.buffers {
        let usage = match binding.kind {
            BufferKind::Uniform => vk::BufferUsageFlags::UNIFORM_BUFFER,
            _ => vk::BufferUsageFlags::STORAGE_BUFFER,
        };
        let transfer = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
        let size = binding.data.len() as vk::DeviceSize;
        let (staging, staging_memory) =
            device.create_buffer(&binding.data, transfer, &memory_properties)?;
        let local = vk::MemoryPropertyFlags::DEVICE_LOCAL;
        let (pristine, _) =
            device.create_empty_buffer(size, transfer, local, &memory_properties)?;
        let (working, working_memory) =
            device.create_empty_buffer(size, usage | transfer, local, &memory_properties)?;
        device.bound.push(Bound::Buffer {
            buffer: working,
            memory: working_memory,
        });
        timed.push(TimedBuffer {
            working,
            pristine,
            staging,
            staging_memory,
            size,
        });
    }
    device.bind_buffers(&job.buffers)?;

    let query_count = 2 * repetitions;
    let pool_info = vk::QueryPoolCreateInfo::default()
        .query_type(vk::QueryType::TIMESTAMP)
        .query_count(query_count);
    // SAFETY: `pool_info` lives across the call.
    let queries = unsafe { device.device.create_query_pool(&pool_info, None) }
        .map_err(vk_error("vkCreateQueryPool"))?;
    let result = record_and_wait(&mut device, &chosen, job, &timed, queries, repetitions);
    if let Err(message) = result {
        // The GPU may still be running: leak everything rather than destroy it in use.
        std::mem::forget(device);
        std::mem::forget(instance);
        return Err(message);
    }

    let mut stamps = vec![0u64; query_count as usize];
    // SAFETY: the fence signalled, so every query is available; `stamps` holds them all.
    let read = unsafe {
        device.device.get_query_pool_results(
            queries,
            0,
            &mut stamps,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
        )
    };
    // SAFETY: the pool is no longer in use.
    unsafe { device.device.destroy_query_pool(queries, None) };
    read.map_err(vk_error("vkGetQueryPoolResults"))?;
    let mask = if valid_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << valid_bits) - 1
    };
    let dispatch_ns = stamps
        .chunks_exact(2)
        .map(|pair| (pair[1].wrapping_sub(pair[0]) & mask) as f64 * period_ns)
        .collect();
    let buffers = timed
        .iter()
        .map(|t| device.read_memory(t.staging_memory, t.size as usize))
        .collect::<Result<_, _>>()?;
    Ok(DispatchTiming {
        dispatch_ns,
        output: ComputeOutput {
            buffers,
            device: device_info,
        },
    })
}

/// Records the uploads, the timed repetitions and the read-back, submits them and waits.
fn record_and_wait(
    device: &mut DeviceScope,
    chosen: &super::ChosenDevice,
    job: &ComputeJob,
    timed: &[TimedBuffer],
    queries: vk::QueryPool,
    repetitions: u32,
) -> Result<(), String> {
    let commands = device.begin_commands(chosen.queue_family)?;
    let d = &device.device;
    let barrier = |src_stage, src_access, dst_stage, dst_access| {
        let memory = [vk::MemoryBarrier::default()
            .src_access_mask(src_access)
            .dst_access_mask(dst_access)];
        // SAFETY: `commands` is recording.
        unsafe {
            d.cmd_pipeline_barrier(
                commands,
                src_stage,
                dst_stage,
                vk::DependencyFlags::empty(),
                &memory,
                &[],
                &[],
            )
        };
    };
    let copy = |from: vk::Buffer, to: vk::Buffer, size| {
        let region = [vk::BufferCopy::default().size(size)];
        // SAFETY: both buffers are at least `size` bytes, with the transfer usages.
        unsafe { d.cmd_copy_buffer(commands, from, to, &region) };
    };
    let transfer = vk::PipelineStageFlags::TRANSFER;
    let compute = vk::PipelineStageFlags::COMPUTE_SHADER;
    let shader_access = vk::AccessFlags::SHADER_READ
        | vk::AccessFlags::SHADER_WRITE
        | vk::AccessFlags::UNIFORM_READ;
    let [x, y, z] = job.workgroups;
    // SAFETY: every object recorded belongs to this device and outlives the submission.
    unsafe {
        d.cmd_reset_query_pool(commands, queries, 0, 2 * repetitions);
        for t in timed {
            copy(t.staging, t.pristine, t.size);
        }
        barrier(
            transfer,
            vk::AccessFlags::TRANSFER_WRITE,
            transfer,
            vk::AccessFlags::TRANSFER_READ,
        );
        d.cmd_bind_pipeline(commands, vk::PipelineBindPoint::COMPUTE, device.pipeline);
        if !device.descriptor_sets.is_empty() {
            d.cmd_bind_descriptor_sets(
                commands,
                vk::PipelineBindPoint::COMPUTE,
                device.pipeline_layout,
                0,
                &device.descriptor_sets,
                &[],
            );
        }
        for repetition in 0..repetitions {
            for t in timed {
                copy(t.pristine, t.working, t.size);
            }
            barrier(
                transfer,
                vk::AccessFlags::TRANSFER_WRITE,
                compute | vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                shader_access,
            );
            // BOTTOM_OF_PIPE: written once every earlier command (the copies) has finished.
            let bottom = vk::PipelineStageFlags::BOTTOM_OF_PIPE;
            d.cmd_write_timestamp(commands, bottom, queries, 2 * repetition);
            d.cmd_dispatch(commands, x, y, z);
            d.cmd_write_timestamp(commands, bottom, queries, 2 * repetition + 1);
            barrier(
                compute,
                vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::SHADER_READ,
                transfer,
                vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE,
            );
        }
        for t in timed {
            copy(t.working, t.staging, t.size);
        }
        barrier(
            transfer,
            vk::AccessFlags::TRANSFER_WRITE,
            vk::PipelineStageFlags::HOST,
            vk::AccessFlags::HOST_READ,
        );
    }
    device.submit_and_wait(commands)
}
