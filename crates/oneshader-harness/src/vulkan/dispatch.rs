//! One compute dispatch on a fresh Vulkan 1.2 instance and device.
//!
//! Every job gets its own instance and device, so jobs share no Vulkan state and may run on
//! many threads at once. All memory is host-visible and coherent: the buffers are filled and
//! read back through mappings, with no staging copies.

mod draw;
mod timing;

use std::ffi::CString;
use std::time::Duration;

use ash::vk;

use super::driver::{vk_string, VulkanDriver};
use crate::job::{
    check_buffers, BufferBinding, BufferKind, ComputeJob, ComputeOutput, DeviceInfo, Filter,
    TexelFormat,
};

pub(crate) use draw::draw;
pub(crate) use timing::time;
pub use timing::DispatchTiming;

/// The longest the harness waits for a dispatch to finish, unless
/// [`FENCE_TIMEOUT_ENV`] says otherwise.
pub const FENCE_TIMEOUT: Duration = Duration::from_secs(60);

/// The variable that sets the seconds the harness waits for a dispatch (to cut down a shader
/// that hangs a GPU without waiting a minute on each try).
pub const FENCE_TIMEOUT_ENV: &str = "ONESHADER_FENCE_TIMEOUT_S";

/// The longest the harness waits for a dispatch: [`FENCE_TIMEOUT_ENV`]'s seconds, or
/// [`FENCE_TIMEOUT`].
pub fn fence_timeout() -> Duration {
    std::env::var(FENCE_TIMEOUT_ENV)
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(FENCE_TIMEOUT, Duration::from_secs)
}

/// Checks that `bytes` can be pushed: a multiple of 4, within `maxPushConstantsSize`.
fn check_push_constants(bytes: &[u8], limits: &vk::PhysicalDeviceLimits) -> Result<(), String> {
    if bytes.len() % 4 != 0 {
        return Err(format!(
            "the push constants are {} bytes; Vulkan needs a multiple of 4",
            bytes.len()
        ));
    }
    if bytes.len() > limits.max_push_constants_size as usize {
        return Err(format!(
            "the push constants are {} bytes; the device allows {} (maxPushConstantsSize)",
            bytes.len(),
            limits.max_push_constants_size
        ));
    }
    Ok(())
}

/// Runs `job` on `driver` and returns every buffer's contents afterwards.
pub(crate) fn run(driver: VulkanDriver, job: &ComputeJob) -> Result<ComputeOutput, String> {
    check_buffers(&job.buffers)?;
    if job.spirv.is_empty() {
        return Err("the SPIR-V module is empty".into());
    }
    let entry_point = CString::new(job.entry_point.as_str())
        .map_err(|_| format!("entry point name {:?} contains NUL", job.entry_point))?;
    let entry = driver.entry()?;
    let instance = InstanceScope::create(&entry)?;
    let chosen = choose_physical_device(&instance.instance)?;
    check_workgroups(job.workgroups, &chosen.properties.limits)?;
    check_push_constants(&job.push_constants, &chosen.properties.limits)?;
    let device_info = describe(&chosen);
    let mut device = DeviceScope::create(&instance.instance, &chosen)?;
    let outcome = device.dispatch(&instance.instance, &chosen, job, &entry_point);
    match outcome {
        Ok(buffers) => Ok(ComputeOutput {
            buffers,
            device: device_info,
        }),
        Err(DispatchError::StillRunning(message)) => {
            // The device may still be using the resources: destroying them now is undefined
            // behaviour, so the device and instance are leaked instead.
            std::mem::forget(device);
            std::mem::forget(instance);
            Err(message)
        }
        Err(DispatchError::Failed(message)) => Err(message),
    }
}

/// A dispatch beyond `maxComputeWorkGroupCount` is undefined behaviour, so it is an error here.
fn check_workgroups(workgroups: [u32; 3], limits: &vk::PhysicalDeviceLimits) -> Result<(), String> {
    let max = limits.max_compute_work_group_count;
    if workgroups.iter().zip(max).any(|(&count, max)| count > max) {
        return Err(format!(
            "{workgroups:?} workgroups exceed the device's maxComputeWorkGroupCount {max:?}"
        ));
    }
    Ok(())
}

enum DispatchError {
    /// The work was submitted but did not finish in time.
    StillRunning(String),
    /// Something failed before submission or after completion.
    Failed(String),
}

impl From<String> for DispatchError {
    fn from(message: String) -> Self {
        DispatchError::Failed(message)
    }
}

fn vk_error(what: &str) -> impl FnOnce(vk::Result) -> String + '_ {
    move |result| format!("{what} failed: {result:?}")
}

/// An instance destroyed on drop.
struct InstanceScope {
    instance: ash::Instance,
}

impl InstanceScope {
    fn create(entry: &ash::Entry) -> Result<Self, String> {
        // SAFETY: a plain global query.
        let version = unsafe { entry.try_enumerate_instance_version() }
            .map_err(vk_error("vkEnumerateInstanceVersion"))?
            .unwrap_or(vk::API_VERSION_1_0);
        if version < vk::API_VERSION_1_2 {
            return Err(format!(
                "the Vulkan instance supports only version {}, the harness needs 1.2",
                version_string(version)
            ));
        }
        let app = vk::ApplicationInfo::default()
            .application_name(c"oneshader-harness")
            .api_version(vk::API_VERSION_1_2);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: `info` and what it points to live across the call.
        let instance =
            unsafe { entry.create_instance(&info, None) }.map_err(vk_error("vkCreateInstance"))?;
        Ok(InstanceScope { instance })
    }
}

impl Drop for InstanceScope {
    fn drop(&mut self) {
        // SAFETY: every child object was destroyed by `DeviceScope::drop` first.
        unsafe { self.instance.destroy_instance(None) };
    }
}

/// The physical device a job runs on, and what was learned about it.
struct ChosenDevice {
    physical: vk::PhysicalDevice,
    queue_family: u32,
    properties: vk::PhysicalDeviceProperties,
    subgroup: vk::PhysicalDeviceSubgroupProperties<'static>,
    /// `(minSubgroupSize, maxSubgroupSize)` where the device has subgroup size control.
    size_control: Option<(u32, u32)>,
}

fn choose_physical_device(instance: &ash::Instance) -> Result<ChosenDevice, String> {
    // SAFETY: plain queries on a live instance.
    let physicals = unsafe { instance.enumerate_physical_devices() }
        .map_err(vk_error("vkEnumeratePhysicalDevices"))?;
    let mut candidates = Vec::new();
    for physical in physicals {
        // SAFETY: `physical` came from this instance.
        let properties = unsafe { instance.get_physical_device_properties(physical) };
        if properties.api_version < vk::API_VERSION_1_2 {
            continue;
        }
        // SAFETY: as above.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let compute = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE));
        if let Some(queue_family) = compute.and_then(|i| u32::try_from(i).ok()) {
            let rank = match properties.device_type {
                vk::PhysicalDeviceType::DISCRETE_GPU => 0,
                vk::PhysicalDeviceType::INTEGRATED_GPU => 1,
                vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
                _ => 3,
            };
            candidates.push((rank, physical, queue_family, properties));
        }
    }
    candidates.sort_by_key(|(rank, ..)| *rank);
    let (_, physical, queue_family, properties) = candidates
        .into_iter()
        .next()
        .ok_or("no Vulkan 1.2 device with a compute queue")?;

    let has_size_control = properties.api_version >= vk::API_VERSION_1_3
        || has_device_extension(instance, physical, c"VK_EXT_subgroup_size_control");
    let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
    let mut size_control = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
    let mut properties2 = vk::PhysicalDeviceProperties2::default().push_next(&mut subgroup);
    if has_size_control {
        properties2 = properties2.push_next(&mut size_control);
    }
    // SAFETY: the chain holds only structures the device supports.
    unsafe { instance.get_physical_device_properties2(physical, &mut properties2) };
    let size_control = has_size_control.then_some((
        size_control.min_subgroup_size,
        size_control.max_subgroup_size,
    ));
    Ok(ChosenDevice {
        physical,
        queue_family,
        properties,
        subgroup: vk::PhysicalDeviceSubgroupProperties {
            p_next: std::ptr::null_mut(),
            ..subgroup
        },
        size_control,
    })
}

fn has_device_extension(
    instance: &ash::Instance,
    physical: vk::PhysicalDevice,
    name: &std::ffi::CStr,
) -> bool {
    // SAFETY: a plain query on a live physical device.
    let extensions = unsafe { instance.enumerate_device_extension_properties(physical) };
    extensions.is_ok_and(|list| {
        list.iter()
            .any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == name))
    })
}

fn describe(chosen: &ChosenDevice) -> DeviceInfo {
    let size = chosen.subgroup.subgroup_size;
    let (min, max) = chosen.size_control.unwrap_or((size, size));
    DeviceInfo {
        name: vk_string(&chosen.properties.device_name),
        subgroup_size: size,
        subgroup_min_size: min,
        subgroup_max_size: max,
        subgroup_operations: chosen.subgroup.supported_operations,
        subgroup_stages: chosen.subgroup.supported_stages,
    }
}

fn version_string(version: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(version),
        vk::api_version_minor(version),
        vk::api_version_patch(version)
    )
}

/// A logical device and every object a dispatch creates on it, destroyed on drop.
struct DeviceScope {
    device: ash::Device,
    queue: vk::Queue,
    buffers: Vec<vk::Buffer>,
    memories: Vec<vk::DeviceMemory>,
    images: Vec<vk::Image>,
    views: Vec<vk::ImageView>,
    buffer_views: Vec<vk::BufferView>,
    samplers: Vec<vk::Sampler>,
    /// What each of the job's bindings became, in the job's order.
    bound: Vec<Bound>,
    shader: vk::ShaderModule,
    /// A draw's pixel shader (`shader` is its vertex shader).
    fragment_shader: vk::ShaderModule,
    render_pass: vk::RenderPass,
    framebuffer: vk::Framebuffer,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pipeline_layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    descriptor_pool: vk::DescriptorPool,
    descriptor_sets: Vec<vk::DescriptorSet>,
    command_pool: vk::CommandPool,
    fence: vk::Fence,
}

impl DeviceScope {
    /// Creates a device with one compute queue and every feature of Vulkan 1.0–1.2 that the
    /// device supports, so that any shader the device can run, runs.
    fn create(instance: &ash::Instance, chosen: &ChosenDevice) -> Result<Self, String> {
        let mut features11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut features12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut features11)
            .push_next(&mut features12);
        // SAFETY: both chained structures are core in Vulkan 1.2, which the device supports.
        unsafe { instance.get_physical_device_features2(chosen.physical, &mut features) };

        let priorities = [1.0f32];
        let queue_info = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(chosen.queue_family)
            .queue_priorities(&priorities)];
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue_info)
            .push_next(&mut features);
        // SAFETY: `info` and its chain live across the call; the features were reported by the
        // device itself.
        let device = unsafe { instance.create_device(chosen.physical, &info, None) }
            .map_err(vk_error("vkCreateDevice"))?;
        // SAFETY: the queue family was created with one queue.
        let queue = unsafe { device.get_device_queue(chosen.queue_family, 0) };
        Ok(DeviceScope {
            device,
            queue,
            buffers: Vec::new(),
            memories: Vec::new(),
            images: Vec::new(),
            views: Vec::new(),
            buffer_views: Vec::new(),
            samplers: Vec::new(),
            bound: Vec::new(),
            shader: vk::ShaderModule::null(),
            fragment_shader: vk::ShaderModule::null(),
            render_pass: vk::RenderPass::null(),
            framebuffer: vk::Framebuffer::null(),
            set_layouts: Vec::new(),
            pipeline_layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
            descriptor_pool: vk::DescriptorPool::null(),
            descriptor_sets: Vec::new(),
            command_pool: vk::CommandPool::null(),
            fence: vk::Fence::null(),
        })
    }

    fn dispatch(
        &mut self,
        instance: &ash::Instance,
        chosen: &ChosenDevice,
        job: &ComputeJob,
        entry_point: &std::ffi::CStr,
    ) -> Result<Vec<Vec<u8>>, DispatchError> {
        self.create_pipeline(job, entry_point)?;
        // SAFETY: a plain query on a live physical device.
        let memory_properties =
            unsafe { instance.get_physical_device_memory_properties(chosen.physical) };
        for buffer in &job.buffers {
            let bound = match buffer.kind {
                BufferKind::SampledTexture {
                    width,
                    height,
                    format,
                }
                | BufferKind::StorageTexture {
                    width,
                    height,
                    format,
                    ..
                } => self.create_texture(buffer, width, height, format, &memory_properties)?,
                BufferKind::Sampler { filter } => self.create_sampler(filter)?,
                BufferKind::TexelBuffer { format, write } => {
                    self.create_texel_buffer(&buffer.data, format, write, &memory_properties)?
                }
                _ => {
                    let usage = match buffer.kind {
                        BufferKind::Uniform => vk::BufferUsageFlags::UNIFORM_BUFFER,
                        _ => vk::BufferUsageFlags::STORAGE_BUFFER,
                    };
                    let (buffer, memory) =
                        self.create_buffer(&buffer.data, usage, &memory_properties)?;
                    Bound::Buffer { buffer, memory }
                }
            };
            self.bound.push(bound);
        }
        self.bind_buffers(&job.buffers)?;
        self.record_and_submit(chosen.queue_family, job.workgroups, &job.push_constants)?;

        let timeout_ns = u64::try_from(fence_timeout().as_nanos()).unwrap_or(u64::MAX);
        // SAFETY: the fence belongs to this device.
        let waited = unsafe { self.device.wait_for_fences(&[self.fence], true, timeout_ns) };
        match waited {
            Ok(()) => {}
            Err(vk::Result::TIMEOUT) => {
                return Err(DispatchError::StillRunning(format!(
                    "the dispatch did not finish within {} s",
                    fence_timeout().as_secs()
                )))
            }
            Err(e) => {
                return Err(DispatchError::StillRunning(format!(
                    "vkWaitForFences: {e:?}"
                )))
            }
        }
        job.buffers
            .iter()
            .zip(&self.bound)
            .map(|(buffer, bound)| match *bound {
                Bound::Buffer { memory, .. }
                | Bound::Texture { memory, .. }
                | Bound::TexelBuffer { memory, .. } => self.read_memory(memory, buffer.data.len()),
                Bound::Sampler(_) => Ok(Vec::new()),
            })
            .collect::<Result<_, _>>()
            .map_err(DispatchError::Failed)
    }

    fn create_pipeline(
        &mut self,
        job: &ComputeJob,
        entry_point: &std::ffi::CStr,
    ) -> Result<(), String> {
        let module_info = vk::ShaderModuleCreateInfo::default().code(&job.spirv);
        // SAFETY: `module_info` lives across the call. The driver gets the words unvalidated,
        // as any application would hand them over.
        self.shader = unsafe { self.device.create_shader_module(&module_info, None) }
            .map_err(vk_error("vkCreateShaderModule"))?;

        self.create_set_layouts(&job.buffers, vk::ShaderStageFlags::COMPUTE)?;
        let push_constant_ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .offset(0)
            .size(job.push_constants.len() as u32)];
        let push_constant_ranges: &[vk::PushConstantRange] = if job.push_constants.is_empty() {
            &[]
        } else {
            &push_constant_ranges
        };
        let layout_info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&self.set_layouts)
            .push_constant_ranges(push_constant_ranges);
        // SAFETY: `layout_info` lives across the call.
        self.pipeline_layout = unsafe { self.device.create_pipeline_layout(&layout_info, None) }
            .map_err(vk_error("vkCreatePipelineLayout"))?;

        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(self.shader)
            .name(entry_point);
        let info = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(self.pipeline_layout)];
        // SAFETY: `info` lives across the call.
        let pipelines = unsafe {
            self.device
                .create_compute_pipelines(vk::PipelineCache::null(), &info, None)
        };
        self.pipeline = match pipelines {
            Ok(pipelines) => pipelines.first().copied().unwrap_or_default(),
            Err((_, e)) => return Err(format!("vkCreateComputePipelines failed: {e:?}")),
        };
        Ok(())
    }

    /// One descriptor set layout per set the buffers name, each binding visible to `stages`.
    fn create_set_layouts(
        &mut self,
        buffers: &[BufferBinding],
        stages: vk::ShaderStageFlags,
    ) -> Result<(), String> {
        let set_count = buffers.iter().map(|b| b.set + 1).max().unwrap_or(0);
        for set in 0..set_count {
            let bindings: Vec<_> = buffers
                .iter()
                .filter(|b| b.set == set)
                .map(|b| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b.binding)
                        .descriptor_type(descriptor_type(b.kind))
                        .descriptor_count(1)
                        .stage_flags(stages)
                })
                .collect();
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            // SAFETY: `info` lives across the call.
            let layout = unsafe { self.device.create_descriptor_set_layout(&info, None) }
                .map_err(vk_error("vkCreateDescriptorSetLayout"))?;
            self.set_layouts.push(layout);
        }
        Ok(())
    }

    /// A 2D image of `format` and `extent` in optimal tiling and device memory, with a view.
    fn create_image(
        &mut self,
        format: TexelFormat,
        (width, height): (u32, u32),
        usage: vk::ImageUsageFlags,
        memory_properties: &vk::PhysicalDeviceMemoryProperties,
    ) -> Result<(vk::Image, vk::ImageView), String> {
        let vk_format = vk_format(format);
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk_format)
            .extent(vk::Extent3D {
                width,
                height,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: `info` lives across the call.
        let image =
            unsafe { self.device.create_image(&info, None) }.map_err(vk_error("vkCreateImage"))?;
        self.images.push(image);
        // SAFETY: the image belongs to this device.
        let requirements = unsafe { self.device.get_image_memory_requirements(image) };
        let memory_type = (0..memory_properties.memory_type_count)
            .find(|&i| requirements.memory_type_bits & (1 << i) != 0)
            .ok_or("no memory type for an image")?;
        let allocate = vk::MemoryAllocateInfo::default()
            .allocation_size(requirements.size)
            .memory_type_index(memory_type);
        // SAFETY: `allocate` lives across the call.
        let image_memory = unsafe { self.device.allocate_memory(&allocate, None) }
            .map_err(vk_error("vkAllocateMemory"))?;
        self.memories.push(image_memory);
        // SAFETY: image and memory belong to this device; the memory type fits the image.
        unsafe { self.device.bind_image_memory(image, image_memory, 0) }
            .map_err(vk_error("vkBindImageMemory"))?;
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(vk_format)
            .subresource_range(color_range());
        // SAFETY: `view_info` names a live image of this device.
        let view = unsafe { self.device.create_image_view(&view_info, None) }
            .map_err(vk_error("vkCreateImageView"))?;
        self.views.push(view);
        Ok((image, view))
    }

    /// A texture in optimal tiling with its view, and a host-visible staging buffer that
    /// fills it before the dispatch and receives its texels after it.
    fn create_texture(
        &mut self,
        binding: &BufferBinding,
        width: u32,
        height: u32,
        format: TexelFormat,
        memory_properties: &vk::PhysicalDeviceMemoryProperties,
    ) -> Result<Bound, String> {
        let usage = match binding.kind {
            BufferKind::StorageTexture { .. } => vk::ImageUsageFlags::STORAGE,
            _ => vk::ImageUsageFlags::SAMPLED,
        } | vk::ImageUsageFlags::TRANSFER_SRC
            | vk::ImageUsageFlags::TRANSFER_DST;
        let (image, view) = self.create_image(format, (width, height), usage, memory_properties)?;
        let (staging, memory) = self.create_buffer(
            &binding.data,
            vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST,
            memory_properties,
        )?;
        Ok(Bound::Texture {
            image,
            view,
            staging,
            memory,
            extent: (width, height),
        })
    }

    /// A sampler that clamps to the edge, with normalized coordinates.
    fn create_sampler(&mut self, filter: Filter) -> Result<Bound, String> {
        let filter = match filter {
            Filter::Point => vk::Filter::NEAREST,
            Filter::Linear => vk::Filter::LINEAR,
        };
        let info = vk::SamplerCreateInfo::default()
            .mag_filter(filter)
            .min_filter(filter)
            .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
            .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .max_lod(0.0);
        // SAFETY: `info` lives across the call.
        let sampler = unsafe { self.device.create_sampler(&info, None) }
            .map_err(vk_error("vkCreateSampler"))?;
        self.samplers.push(sampler);
        Ok(Bound::Sampler(sampler))
    }

    /// A uniform (`write` false) or storage texel buffer holding `data`, and its view.
    fn create_texel_buffer(
        &mut self,
        data: &[u8],
        format: TexelFormat,
        write: bool,
        memory_properties: &vk::PhysicalDeviceMemoryProperties,
    ) -> Result<Bound, String> {
        let usage = if write {
            vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
        } else {
            vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
        };
        let (buffer, memory) = self.create_buffer(data, usage, memory_properties)?;
        let info = vk::BufferViewCreateInfo::default()
            .buffer(buffer)
            .format(vk_format(format))
            .offset(0)
            .range(vk::WHOLE_SIZE);
        // SAFETY: `info` lives across the call and names a live buffer of this device.
        let view = unsafe { self.device.create_buffer_view(&info, None) }
            .map_err(vk_error("vkCreateBufferView"))?;
        self.buffer_views.push(view);
        Ok(Bound::TexelBuffer { memory, view })
    }

    /// A buffer holding `data`, in host-visible, coherent memory.
    fn create_buffer(
        &mut self,
        data: &[u8],
        usage: vk::BufferUsageFlags,
        memory_properties: &vk::PhysicalDeviceMemoryProperties,
    ) -> Result<(vk::Buffer, vk::DeviceMemory), String> {
        let wanted = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let size = data.len() as vk::DeviceSize;
        let (buffer, memory) = self.create_empty_buffer(size, usage, wanted, memory_properties)?;
        self.write_memory(memory, data)?;
        Ok((buffer, memory))
    }

    /// A buffer of `size` bytes with undefined contents, in the first memory type that has
    /// the `wanted` properties.
    fn create_empty_buffer(
        &mut self,
        size: vk::DeviceSize,
        usage: vk::BufferUsageFlags,
        wanted: vk::MemoryPropertyFlags,
        memory_properties: &vk::PhysicalDeviceMemoryProperties,
    ) -> Result<(vk::Buffer, vk::DeviceMemory), String> {
        let info = vk::BufferCreateInfo::default()
            .size(size)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: `info` lives across the call.
        let buffer = unsafe { self.device.create_buffer(&info, None) }
            .map_err(vk_error("vkCreateBuffer"))?;
        self.buffers.push(buffer);
        // SAFETY: the buffer belongs to this device.
        let requirements = unsafe { self.device.get_buffer_memory_requirements(buffer) };
        let memory_type = (0..memory_properties.memory_type_count)
            .find(|&i| {
                requirements.memory_type_bits & (1 << i) != 0
                    && memory_properties.memory_types[i as usize]
                        .property_flags
                        .contains(wanted)
            })
            .ok_or_else(|| format!("no {wanted:?} memory type for a buffer"))?;
        let allocate = vk::MemoryAllocateInfo::default()
            .allocation_size(requirements.size)
            .memory_type_index(memory_type);
        // SAFETY: `allocate` lives across the call.
        let memory = unsafe { self.device.allocate_memory(&allocate, None) }
            .map_err(vk_error("vkAllocateMemory"))?;
        self.memories.push(memory);
        // SAFETY: buffer and memory belong to this device; the memory type fits the buffer.
        unsafe { self.device.bind_buffer_memory(buffer, memory, 0) }
            .map_err(vk_error("vkBindBufferMemory"))?;
        Ok((buffer, memory))
    }

    fn write_memory(&self, memory: vk::DeviceMemory, data: &[u8]) -> Result<(), String> {
        // SAFETY: the memory is host-visible and at least `data.len()` bytes long; the mapping
        // is written within bounds and unmapped before any GPU use.
        unsafe {
            let mapped = self
                .device
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                .map_err(vk_error("vkMapMemory"))?;
            std::ptr::copy_nonoverlapping(data.as_ptr(), mapped.cast::<u8>(), data.len());
            self.device.unmap_memory(memory);
        }
        Ok(())
    }

    fn read_memory(&self, memory: vk::DeviceMemory, len: usize) -> Result<Vec<u8>, String> {
        let mut data = vec![0u8; len];
        // SAFETY: the GPU has finished (the fence signalled); the memory is host-coherent and at
        // least `len` bytes long.
        unsafe {
            let mapped = self
                .device
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                .map_err(vk_error("vkMapMemory"))?;
            std::ptr::copy_nonoverlapping(mapped.cast::<u8>(), data.as_mut_ptr(), len);
            self.device.unmap_memory(memory);
        }
        Ok(data)
    }

    fn bind_buffers(&mut self, buffers: &[BufferBinding]) -> Result<(), String> {
        if self.set_layouts.is_empty() {
            return Ok(());
        }
        let count = |kind: vk::DescriptorType| {
            let n = buffers
                .iter()
                .filter(|b| descriptor_type(b.kind) == kind)
                .count();
            vk::DescriptorPoolSize::default()
                .ty(kind)
                .descriptor_count(u32::try_from(n).unwrap_or(u32::MAX))
        };
        let sizes: Vec<_> = [
            vk::DescriptorType::STORAGE_BUFFER,
            vk::DescriptorType::UNIFORM_BUFFER,
            vk::DescriptorType::SAMPLED_IMAGE,
            vk::DescriptorType::STORAGE_IMAGE,
            vk::DescriptorType::SAMPLER,
            vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
            vk::DescriptorType::STORAGE_TEXEL_BUFFER,
        ]
        .into_iter()
        .map(count)
        .filter(|size| size.descriptor_count > 0)
        .collect();
        let set_count = u32::try_from(self.set_layouts.len()).unwrap_or(u32::MAX);
        let pool_info = vk::DescriptorPoolCreateInfo::default()
            .max_sets(set_count)
            .pool_sizes(&sizes);
        // SAFETY: `pool_info` lives across the call.
        self.descriptor_pool = unsafe { self.device.create_descriptor_pool(&pool_info, None) }
            .map_err(vk_error("vkCreateDescriptorPool"))?;
        let allocate = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(self.descriptor_pool)
            .set_layouts(&self.set_layouts);
        // SAFETY: the pool has room for one set per layout.
        let sets = unsafe { self.device.allocate_descriptor_sets(&allocate) }
            .map_err(vk_error("vkAllocateDescriptorSets"))?;

        let buffer_infos: Vec<[vk::DescriptorBufferInfo; 1]> = self
            .bound
            .iter()
            .map(|bound| {
                let buffer = match *bound {
                    Bound::Buffer { buffer, .. } => buffer,
                    _ => vk::Buffer::null(),
                };
                [vk::DescriptorBufferInfo::default()
                    .buffer(buffer)
                    .offset(0)
                    .range(vk::WHOLE_SIZE)]
            })
            .collect();
        let image_infos: Vec<[vk::DescriptorImageInfo; 1]> = self
            .bound
            .iter()
            .map(|bound| {
                let info = vk::DescriptorImageInfo::default();
                [match *bound {
                    Bound::Texture { view, .. } => {
                        info.image_view(view).image_layout(vk::ImageLayout::GENERAL)
                    }
                    Bound::Sampler(sampler) => info.sampler(sampler),
                    Bound::Buffer { .. } | Bound::TexelBuffer { .. } => info,
                }]
            })
            .collect();
        let texel_views: Vec<[vk::BufferView; 1]> = self
            .bound
            .iter()
            .map(|bound| match *bound {
                Bound::TexelBuffer { view, .. } => [view],
                _ => [vk::BufferView::null()],
            })
            .collect();
        let writes: Vec<_> = buffers
            .iter()
            .zip(self.bound.iter().zip(buffer_infos.iter().zip(&image_infos)))
            .zip(&texel_views)
            .map(
                |((binding, (bound, (buffer_info, image_info))), texel_view)| {
                    let write = vk::WriteDescriptorSet::default()
                        .dst_set(sets[binding.set as usize])
                        .dst_binding(binding.binding)
                        .descriptor_type(descriptor_type(binding.kind));
                    match bound {
                        Bound::Buffer { .. } => write.buffer_info(buffer_info),
                        Bound::TexelBuffer { .. } => write.texel_buffer_view(texel_view),
                        _ => write.image_info(image_info),
                    }
                },
            )
            .collect();
        // SAFETY: every write names a live set, a binding of its layout and a live buffer.
        unsafe { self.device.update_descriptor_sets(&writes, &[]) };

        self.descriptor_sets = sets;
        Ok(())
    }

    /// Creates the command pool and one command buffer, and begins recording it.
    fn begin_commands(&mut self, queue_family: u32) -> Result<vk::CommandBuffer, String> {
        let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(queue_family);
        // SAFETY: `pool_info` lives across the call.
        self.command_pool = unsafe { self.device.create_command_pool(&pool_info, None) }
            .map_err(vk_error("vkCreateCommandPool"))?;
        let allocate = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.command_pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: `allocate` lives across the call.
        let commands = unsafe { self.device.allocate_command_buffers(&allocate) }
            .map_err(vk_error("vkAllocateCommandBuffers"))?;
        let commands = commands
            .first()
            .copied()
            .ok_or("vkAllocateCommandBuffers returned no command buffer")?;
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: a fresh command buffer of this device.
        unsafe { self.device.begin_command_buffer(commands, &begin) }
            .map_err(vk_error("vkBeginCommandBuffer"))?;
        Ok(commands)
    }

    /// Ends `commands` and submits them with a new fence.
    fn submit(&mut self, commands: vk::CommandBuffer) -> Result<(), String> {
        // SAFETY: `commands` is recording.
        unsafe { self.device.end_command_buffer(commands) }
            .map_err(vk_error("vkEndCommandBuffer"))?;
        // SAFETY: a plain object creation.
        self.fence = unsafe {
            self.device
                .create_fence(&vk::FenceCreateInfo::default(), None)
        }
        .map_err(vk_error("vkCreateFence"))?;
        let command_buffers = [commands];
        let submit = [vk::SubmitInfo::default().command_buffers(&command_buffers)];
        // SAFETY: the command buffer is fully recorded; the fence is unsignalled.
        unsafe { self.device.queue_submit(self.queue, &submit, self.fence) }
            .map_err(vk_error("vkQueueSubmit"))
    }

    /// Submits `commands` and waits up to [`fence_timeout`] for them to finish.
    fn submit_and_wait(&mut self, commands: vk::CommandBuffer) -> Result<(), String> {
        self.submit(commands)?;
        let timeout_ns = u64::try_from(fence_timeout().as_nanos()).unwrap_or(u64::MAX);
        // SAFETY: the fence belongs to this device.
        unsafe { self.device.wait_for_fences(&[self.fence], true, timeout_ns) }.map_err(|e| {
            format!(
                "the commands did not finish within {} s: {e:?}",
                fence_timeout().as_secs()
            )
        })
    }

    fn record_and_submit(
        &mut self,
        queue_family: u32,
        workgroups: [u32; 3],
        push_constants: &[u8],
    ) -> Result<(), String> {
        let commands = self.begin_commands(queue_family)?;
        let [x, y, z] = workgroups;
        // Shader writes and texture read-back copies must be visible to the host reads
        // that follow the fence.
        let to_host = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: every object recorded belongs to this device and outlives the submission.
        unsafe {
            self.record_texture_uploads(commands);
            self.device
                .cmd_bind_pipeline(commands, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            if !self.descriptor_sets.is_empty() {
                self.device.cmd_bind_descriptor_sets(
                    commands,
                    vk::PipelineBindPoint::COMPUTE,
                    self.pipeline_layout,
                    0,
                    &self.descriptor_sets,
                    &[],
                );
            }
            if !push_constants.is_empty() {
                self.device.cmd_push_constants(
                    commands,
                    self.pipeline_layout,
                    vk::ShaderStageFlags::COMPUTE,
                    0,
                    push_constants,
                );
            }
            self.device.cmd_dispatch(commands, x, y, z);
            self.record_texture_readbacks(commands);
            self.device.cmd_pipeline_barrier(
                commands,
                vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &to_host,
                &[],
                &[],
            );
        }
        self.submit(commands)
    }
}

impl Drop for DeviceScope {
    fn drop(&mut self) {
        // SAFETY: nothing is executing any more: either the fence signalled, or nothing was
        // submitted (a submission that timed out leaks this scope instead of dropping it).
        // Destroying a null handle is a no-op.
        unsafe {
            let device = &self.device;
            device.destroy_fence(self.fence, None);
            device.destroy_command_pool(self.command_pool, None);
            device.destroy_descriptor_pool(self.descriptor_pool, None);
            device.destroy_pipeline(self.pipeline, None);
            device.destroy_pipeline_layout(self.pipeline_layout, None);
            for &layout in &self.set_layouts {
                device.destroy_descriptor_set_layout(layout, None);
            }
            device.destroy_shader_module(self.shader, None);
            device.destroy_shader_module(self.fragment_shader, None);
            device.destroy_framebuffer(self.framebuffer, None);
            device.destroy_render_pass(self.render_pass, None);
            for &sampler in &self.samplers {
                device.destroy_sampler(sampler, None);
            }
            for &view in &self.views {
                device.destroy_image_view(view, None);
            }
            for &view in &self.buffer_views {
                device.destroy_buffer_view(view, None);
            }
            for &image in &self.images {
                device.destroy_image(image, None);
            }
            for &buffer in &self.buffers {
                device.destroy_buffer(buffer, None);
            }
            for &memory in &self.memories {
                device.free_memory(memory, None);
            }
            device.destroy_device(None);
        }
    }
}

fn descriptor_type(kind: BufferKind) -> vk::DescriptorType {
    match kind {
        BufferKind::Storage | BufferKind::ReadOnlyStorage => vk::DescriptorType::STORAGE_BUFFER,
        BufferKind::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
        BufferKind::SampledTexture { .. } => vk::DescriptorType::SAMPLED_IMAGE,
        BufferKind::StorageTexture { .. } => vk::DescriptorType::STORAGE_IMAGE,
        BufferKind::Sampler { .. } => vk::DescriptorType::SAMPLER,
        BufferKind::TexelBuffer { write: false, .. } => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        BufferKind::TexelBuffer { write: true, .. } => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
    }
}

fn vk_format(format: TexelFormat) -> vk::Format {
    match format {
        TexelFormat::Rgba32Float => vk::Format::R32G32B32A32_SFLOAT,
        TexelFormat::Rgba8Unorm => vk::Format::R8G8B8A8_UNORM,
        TexelFormat::R32Float => vk::Format::R32_SFLOAT,
        TexelFormat::R32Uint => vk::Format::R32_UINT,
        TexelFormat::R32Sint => vk::Format::R32_SINT,
        TexelFormat::Rg32Sint => vk::Format::R32G32_SINT,
        TexelFormat::Rgba32Uint => vk::Format::R32G32B32A32_UINT,
    }
}

fn color_range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    }
}

/// What one of the job's bindings became on the device.
#[derive(Clone, Copy, Debug)]
enum Bound {
    /// A host-visible buffer.
    Buffer {
        buffer: vk::Buffer,
        memory: vk::DeviceMemory,
    },
    /// A texture with its view and the staging buffer (and its memory) that fills and
    /// reads it.
    Texture {
        image: vk::Image,
        view: vk::ImageView,
        staging: vk::Buffer,
        memory: vk::DeviceMemory,
        extent: (u32, u32),
    },
    /// A sampler.
    Sampler(vk::Sampler),
    /// A host-visible texel buffer and its view.
    TexelBuffer {
        memory: vk::DeviceMemory,
        view: vk::BufferView,
    },
}

impl DeviceScope {
    fn textures(&self) -> impl Iterator<Item = (vk::Image, vk::Buffer, (u32, u32))> + '_ {
        self.bound.iter().filter_map(|bound| match *bound {
            Bound::Texture {
                image,
                staging,
                extent,
                ..
            } => Some((image, staging, extent)),
            _ => None,
        })
    }

    fn image_barrier(
        &self,
        commands: vk::CommandBuffer,
        image: vk::Image,
        (from, from_access, from_stage): (vk::ImageLayout, vk::AccessFlags, vk::PipelineStageFlags),
        (to, to_access, to_stage): (vk::ImageLayout, vk::AccessFlags, vk::PipelineStageFlags),
    ) {
        let barrier = [vk::ImageMemoryBarrier::default()
            .old_layout(from)
            .new_layout(to)
            .src_access_mask(from_access)
            .dst_access_mask(to_access)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image)
            .subresource_range(color_range())];
        // SAFETY: the command buffer is recording; the image belongs to this device.
        unsafe {
            self.device.cmd_pipeline_barrier(
                commands,
                from_stage,
                to_stage,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &barrier,
            );
        }
    }

    fn copy_region((width, height): (u32, u32)) -> [vk::BufferImageCopy; 1] {
        [vk::BufferImageCopy::default()
            .image_subresource(vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            })
            .image_extent(vk::Extent3D {
                width,
                height,
                depth: 1,
            })]
    }

    /// Copies every texture's staging data in and leaves it in `GENERAL` for the shader.
    fn record_texture_uploads(&self, commands: vk::CommandBuffer) {
        let textures: Vec<_> = self.textures().collect();
        for (image, staging, extent) in textures {
            self.image_barrier(
                commands,
                image,
                (
                    vk::ImageLayout::UNDEFINED,
                    vk::AccessFlags::empty(),
                    vk::PipelineStageFlags::TOP_OF_PIPE,
                ),
                (
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    vk::AccessFlags::TRANSFER_WRITE,
                    vk::PipelineStageFlags::TRANSFER,
                ),
            );
            // SAFETY: the command buffer is recording; buffer and image are live and sized
            // for the region.
            unsafe {
                self.device.cmd_copy_buffer_to_image(
                    commands,
                    staging,
                    image,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &Self::copy_region(extent),
                );
            }
            self.image_barrier(
                commands,
                image,
                (
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    vk::AccessFlags::TRANSFER_WRITE,
                    vk::PipelineStageFlags::TRANSFER,
                ),
                (
                    vk::ImageLayout::GENERAL,
                    vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                ),
            );
        }
    }

    /// Copies every texture back into its staging buffer after the dispatch.
    fn record_texture_readbacks(&self, commands: vk::CommandBuffer) {
        let textures: Vec<_> = self.textures().collect();
        for (image, staging, extent) in textures {
            self.image_barrier(
                commands,
                image,
                (
                    vk::ImageLayout::GENERAL,
                    vk::AccessFlags::SHADER_WRITE,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                ),
                (
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                    vk::AccessFlags::TRANSFER_READ,
                    vk::PipelineStageFlags::TRANSFER,
                ),
            );
            // SAFETY: as for the upload.
            unsafe {
                self.device.cmd_copy_image_to_buffer(
                    commands,
                    image,
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                    staging,
                    &Self::copy_region(extent),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workgroup_counts_are_checked_against_the_device_limits() {
        let limits = vk::PhysicalDeviceLimits {
            max_compute_work_group_count: [65535, 100, 1],
            ..Default::default()
        };
        assert_eq!(check_workgroups([65535, 100, 1], &limits), Ok(()));
        assert_eq!(check_workgroups([0, 0, 0], &limits), Ok(()));
        let too_many = check_workgroups([1, 1, 2], &limits);
        assert!(too_many.is_err_and(|e| e.contains("maxComputeWorkGroupCount")));
    }
}
