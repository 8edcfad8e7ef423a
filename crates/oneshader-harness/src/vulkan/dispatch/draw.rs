//! One draw (a vertex and a pixel shader into render targets) on a fresh Vulkan 1.2 instance
//! and device, with D3D's conventions: y up in clip space (a flipped viewport), clockwise
//! front faces, the first vertex provoking flat values.

use std::ffi::CString;

use ash::vk;

use super::{
    choose_physical_device, describe, fence_timeout, vk_error, vk_format, Bound, DeviceScope,
    DispatchError, InstanceScope,
};
use crate::job::{check_buffers, BufferKind, DrawJob, DrawOutput};
use crate::vulkan::VulkanDriver;

/// Runs `job` on `driver`; see [`DrawJob`] for the conventions.
pub(crate) fn draw(driver: VulkanDriver, job: &DrawJob) -> Result<DrawOutput, String> {
    check_buffers(&job.buffers)?;
    if job.buffers.iter().any(|b| {
        !matches!(
            b.kind,
            BufferKind::Storage | BufferKind::ReadOnlyStorage | BufferKind::Uniform
        )
    }) {
        return Err("a draw binds storage and uniform buffers only".into());
    }
    if job.width == 0 || job.height == 0 || job.targets.is_empty() {
        return Err("a draw needs a render target of at least one texel".into());
    }
    let vertex_entry = CString::new(job.vertex_entry.as_str())
        .map_err(|_| format!("entry point name {:?} contains NUL", job.vertex_entry))?;
    let fragment_entry = CString::new(job.fragment_entry.as_str())
        .map_err(|_| format!("entry point name {:?} contains NUL", job.fragment_entry))?;
    let entry = driver.entry()?;
    let instance = InstanceScope::create(&entry)?;
    let chosen = choose_physical_device(&instance.instance)?;
    let device_info = describe(&chosen);
    let mut device = DeviceScope::create(&instance.instance, &chosen)?;
    match device.draw(
        &instance.instance,
        &chosen,
        job,
        &vertex_entry,
        &fragment_entry,
    ) {
        Ok((targets, buffers)) => Ok(DrawOutput {
            targets,
            buffers,
            device: device_info,
        }),
        Err(DispatchError::StillRunning(message)) => {
            // As for a dispatch: the device may still use its resources, so it is leaked.
            std::mem::forget(device);
            std::mem::forget(instance);
            Err(message)
        }
        Err(DispatchError::Failed(message)) => Err(message),
    }
}

/// The render targets' texels and the buffers' bytes after a draw.
type Drawn = (Vec<Vec<u8>>, Vec<Vec<u8>>);

/// A render target: the image, its view, and the host-visible buffer it is copied into.
struct Target {
    image: vk::Image,
    view: vk::ImageView,
    readback: vk::Buffer,
    memory: vk::DeviceMemory,
    bytes: usize,
}

impl DeviceScope {
    fn draw(
        &mut self,
        instance: &ash::Instance,
        chosen: &super::ChosenDevice,
        job: &DrawJob,
        vertex_entry: &std::ffi::CStr,
        fragment_entry: &std::ffi::CStr,
    ) -> Result<Drawn, DispatchError> {
        // SAFETY: a plain query on a live physical device.
        let memory_properties =
            unsafe { instance.get_physical_device_memory_properties(chosen.physical) };
        for buffer in &job.buffers {
            let usage = match buffer.kind {
                BufferKind::Uniform => vk::BufferUsageFlags::UNIFORM_BUFFER,
                _ => vk::BufferUsageFlags::STORAGE_BUFFER,
            };
            let (buffer, memory) = self.create_buffer(&buffer.data, usage, &memory_properties)?;
            self.bound.push(Bound::Buffer { buffer, memory });
        }
        let stages = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
        self.create_set_layouts(&job.buffers, stages)?;
        self.bind_buffers(&job.buffers)?;
        let targets = self.create_targets(job, &memory_properties)?;
        self.create_render_pass(job, &targets)?;
        self.create_graphics_pipeline(job, vertex_entry, fragment_entry)?;
        self.record_draw(chosen.queue_family, job, &targets)?;

        let timeout_ns = u64::try_from(fence_timeout().as_nanos()).unwrap_or(u64::MAX);
        // SAFETY: the fence belongs to this device.
        match unsafe { self.device.wait_for_fences(&[self.fence], true, timeout_ns) } {
            Ok(()) => {}
            Err(vk::Result::TIMEOUT) => {
                return Err(DispatchError::StillRunning(format!(
                    "the draw did not finish within {} s",
                    fence_timeout().as_secs()
                )))
            }
            Err(e) => {
                return Err(DispatchError::StillRunning(format!(
                    "vkWaitForFences: {e:?}"
                )))
            }
        }
        let texels = targets
            .iter()
            .map(|t| self.read_memory(t.memory, t.bytes))
            .collect::<Result<Vec<_>, _>>()?;
        let buffers = job
            .buffers
            .iter()
            .zip(&self.bound)
            .map(|(buffer, bound)| match *bound {
                Bound::Buffer { memory, .. } => self.read_memory(memory, buffer.data.len()),
                _ => Ok(Vec::new()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((texels, buffers))
    }

    /// The render targets, in device-local memory, and their read-back buffers.
    fn create_targets(
        &mut self,
        job: &DrawJob,
        memory_properties: &vk::PhysicalDeviceMemoryProperties,
    ) -> Result<Vec<Target>, String> {
        let mut targets = Vec::new();
        for &format in &job.targets {
            let (image, view) = self.create_image(
                format,
                (job.width, job.height),
                vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
                memory_properties,
            )?;
            let bytes = format.texel_size() * (job.width * job.height) as usize;
            let (readback, memory) = self.create_empty_buffer(
                bytes as vk::DeviceSize,
                vk::BufferUsageFlags::TRANSFER_DST,
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
                memory_properties,
            )?;
            targets.push(Target {
                image,
                view,
                readback,
                memory,
                bytes,
            });
        }
        Ok(targets)
    }

    /// A render pass clearing every target to zero and leaving it ready to copy, and its
    /// framebuffer.
    fn create_render_pass(&mut self, job: &DrawJob, targets: &[Target]) -> Result<(), String> {
        let attachments: Vec<_> = job
            .targets
            .iter()
            .map(|&format| {
                vk::AttachmentDescription::default()
                    .format(vk_format(format))
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .load_op(vk::AttachmentLoadOp::CLEAR)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
                    .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
                    .initial_layout(vk::ImageLayout::UNDEFINED)
                    .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            })
            .collect();
        let references: Vec<_> = (0..job.targets.len() as u32)
            .map(|i| {
                vk::AttachmentReference::default()
                    .attachment(i)
                    .layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            })
            .collect();
        let subpass = [vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&references)];
        // The copies after the pass read what the pass wrote.
        let dependency = [vk::SubpassDependency::default()
            .src_subpass(0)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)];
        let info = vk::RenderPassCreateInfo::default()
            .attachments(&attachments)
            .subpasses(&subpass)
            .dependencies(&dependency);
        // SAFETY: `info` and what it points to live across the call.
        self.render_pass = unsafe { self.device.create_render_pass(&info, None) }
            .map_err(vk_error("vkCreateRenderPass"))?;
        let views: Vec<_> = targets.iter().map(|t| t.view).collect();
        let framebuffer = vk::FramebufferCreateInfo::default()
            .render_pass(self.render_pass)
            .attachments(&views)
            .width(job.width)
            .height(job.height)
            .layers(1);
        // SAFETY: `framebuffer` lives across the call; the views match the pass.
        self.framebuffer = unsafe { self.device.create_framebuffer(&framebuffer, None) }
            .map_err(vk_error("vkCreateFramebuffer"))?;
        Ok(())
    }

    fn create_graphics_pipeline(
        &mut self,
        job: &DrawJob,
        vertex_entry: &std::ffi::CStr,
        fragment_entry: &std::ffi::CStr,
    ) -> Result<(), String> {
        let module = |device: &ash::Device, words: &[u32]| {
            let info = vk::ShaderModuleCreateInfo::default().code(words);
            // SAFETY: `info` lives across the call (the words were validated by the caller).
            unsafe { device.create_shader_module(&info, None) }
                .map_err(vk_error("vkCreateShaderModule"))
        };
        self.shader = module(&self.device, &job.vertex_spirv)?;
        self.fragment_shader = module(&self.device, &job.fragment_spirv)?;
        let layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&self.set_layouts);
        // SAFETY: `layout_info` lives across the call.
        self.pipeline_layout = unsafe { self.device.create_pipeline_layout(&layout_info, None) }
            .map_err(vk_error("vkCreatePipelineLayout"))?;
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(self.shader)
                .name(vertex_entry),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(self.fragment_shader)
                .name(fragment_entry),
        ];
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
        let input_assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
        // D3D's clip space has y up: a viewport of negative height (core since Vulkan 1.1)
        // maps it to the framebuffer as D3D, Metal and WebGPU do.
        let viewport = [vk::Viewport {
            x: 0.0,
            y: job.height as f32,
            width: job.width as f32,
            height: -(job.height as f32),
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissor = [vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: job.width,
                height: job.height,
            },
        }];
        let viewport_state = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&viewport)
            .scissors(&scissor);
        let rasterization = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .front_face(vk::FrontFace::CLOCKWISE)
            .line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let blend: Vec<_> = job
            .targets
            .iter()
            .map(|_| {
                vk::PipelineColorBlendAttachmentState::default()
                    .color_write_mask(vk::ColorComponentFlags::RGBA)
            })
            .collect();
        let color_blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend);
        let info = [vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(&vertex_input)
            .input_assembly_state(&input_assembly)
            .viewport_state(&viewport_state)
            .rasterization_state(&rasterization)
            .multisample_state(&multisample)
            .color_blend_state(&color_blend)
            .layout(self.pipeline_layout)
            .render_pass(self.render_pass)
            .subpass(0)];
        // SAFETY: `info` and everything it points to live across the call.
        let pipelines = unsafe {
            self.device
                .create_graphics_pipelines(vk::PipelineCache::null(), &info, None)
        };
        self.pipeline = match pipelines {
            Ok(pipelines) => pipelines.first().copied().unwrap_or_default(),
            Err((_, e)) => return Err(format!("vkCreateGraphicsPipelines failed: {e:?}")),
        };
        Ok(())
    }

    fn record_draw(
        &mut self,
        queue_family: u32,
        job: &DrawJob,
        targets: &[Target],
    ) -> Result<(), String> {
        let commands = self.begin_commands(queue_family)?;
        let clear: Vec<_> = job
            .targets
            .iter()
            .map(|_| vk::ClearValue {
                color: vk::ClearColorValue { uint32: [0; 4] },
            })
            .collect();
        let begin = vk::RenderPassBeginInfo::default()
            .render_pass(self.render_pass)
            .framebuffer(self.framebuffer)
            .render_area(vk::Rect2D {
                offset: vk::Offset2D { x: 0, y: 0 },
                extent: vk::Extent2D {
                    width: job.width,
                    height: job.height,
                },
            })
            .clear_values(&clear);
        let to_host = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: every object recorded belongs to this device and outlives the submission.
        unsafe {
            self.device
                .cmd_begin_render_pass(commands, &begin, vk::SubpassContents::INLINE);
            self.device
                .cmd_bind_pipeline(commands, vk::PipelineBindPoint::GRAPHICS, self.pipeline);
            if !self.descriptor_sets.is_empty() {
                self.device.cmd_bind_descriptor_sets(
                    commands,
                    vk::PipelineBindPoint::GRAPHICS,
                    self.pipeline_layout,
                    0,
                    &self.descriptor_sets,
                    &[],
                );
            }
            self.device
                .cmd_draw(commands, job.vertex_count, job.instance_count, 0, 0);
            self.device.cmd_end_render_pass(commands);
            for target in targets {
                let region = Self::copy_region((job.width, job.height));
                self.device.cmd_copy_image_to_buffer(
                    commands,
                    target.image,
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                    target.readback,
                    &region,
                );
            }
            self.device.cmd_pipeline_barrier(
                commands,
                vk::PipelineStageFlags::ALL_GRAPHICS | vk::PipelineStageFlags::TRANSFER,
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
