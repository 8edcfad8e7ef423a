//! Creating a compute pipeline from descriptor set layouts an application gives, under
//! the Khronos validation layer, on lavapipe: the layer rejects a layout that does not
//! match what the SPIR-V declares (descriptor type, stage, missing binding).
//!
//! Layers need the Vulkan loader, so this goes through the system loader (not the ICD
//! directly, as [`super::run_compute`] does) and picks lavapipe's `llvmpipe` device.

use std::ffi::{c_void, CStr, CString};
use std::sync::Mutex;

use ash::vk;

use super::driver::{vk_string, VulkanDriver};
use crate::process::INSTALL_HINT;

/// One `VkDescriptorSetLayoutCreateInfo`: the set number and its bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetLayoutDesc {
    /// The set number; sets missing from a list are created empty.
    pub set: u32,
    /// Its bindings.
    pub bindings: Vec<SetLayoutBindingDesc>,
}

/// One `VkDescriptorSetLayoutBinding`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetLayoutBindingDesc {
    /// `binding`.
    pub binding: u32,
    /// `descriptorType`, as its `VkDescriptorType` number.
    pub descriptor_type: i32,
    /// `descriptorCount`.
    pub descriptor_count: u32,
    /// `stageFlags`, as `VkShaderStageFlags`.
    pub stage_flags: u32,
}

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

/// Creates the compute pipeline of `entry_point` in `spirv` with exactly `set_layouts`
/// (and a compute push-constant range of `push_constant_size` bytes at offset 0, none when
/// 0) on lavapipe, with the validation layer on. `Err` carries every validation error (or
/// the failing call); `Ok` means the layer and the driver accepted the pipeline. A call
/// the layer finds invalid is not passed on to the driver.
pub fn check_compute_pipeline_layout(
    spirv: &[u32],
    entry_point: &str,
    set_layouts: &[SetLayoutDesc],
    push_constant_size: u32,
) -> Result<(), String> {
    // Debian 12's loader (1.3.239) loads every ICD and layer library for each instance and
    // unloads them when the last instance goes. Instances made and destroyed on several
    // threads at once crashed the test process (SIGSEGV, once in CI and twice locally), so
    // checks take turns; a panic in one leaves the lock usable.
    static ONE_INSTANCE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _turn = ONE_INSTANCE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let entry = VulkanDriver::System.entry()?;
    // SAFETY: a plain global query.
    let layers = unsafe { entry.enumerate_instance_layer_properties() }
        .map_err(|e| format!("vkEnumerateInstanceLayerProperties failed: {e:?}"))?;
    if !layers
        .iter()
        .any(|l| l.layer_name_as_c_str().is_ok_and(|n| n == VALIDATION_LAYER))
    {
        return Err(format!(
            "the Vulkan validation layer is not installed (apt package vulkan-validationlayers); {INSTALL_HINT}"
        ));
    }
    let entry_point = CString::new(entry_point)
        .map_err(|_| format!("entry point name {entry_point:?} contains NUL"))?;
    let messages = Mutex::new(Vec::<String>::new());
    let app = vk::ApplicationInfo::default()
        .application_name(c"oneshader-harness layout check")
        .api_version(vk::API_VERSION_1_2);
    let layer_names = [VALIDATION_LAYER.as_ptr()];
    let extension_names = [ash::ext::debug_utils::NAME.as_ptr()];
    let mut messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::GENERAL,
        )
        .pfn_user_callback(Some(collect_message))
        .user_data(&messages as *const Mutex<Vec<String>> as *mut c_void);
    let info = vk::InstanceCreateInfo::default()
        .application_info(&app)
        .enabled_layer_names(&layer_names)
        .enabled_extension_names(&extension_names)
        .push_next(&mut messenger_info);
    // SAFETY: `info`, its chain and `messages` (the callback's user data) live until the
    // instance is destroyed at the end of this function.
    let instance = unsafe { entry.create_instance(&info, None) }
        .map_err(|e| format!("vkCreateInstance with the validation layer failed: {e:?}"))?;
    // The chained messenger covers only instance creation; this one covers the rest.
    let debug_utils = ash::ext::debug_utils::Instance::new(&entry, &instance);
    // SAFETY: `messenger_info`'s user data (`messages`) outlives the messenger.
    let messenger = unsafe { debug_utils.create_debug_utils_messenger(&messenger_info, None) };
    let outcome = match messenger {
        Ok(messenger) => {
            let outcome = create_pipeline(
                &instance,
                spirv,
                &entry_point,
                set_layouts,
                push_constant_size,
            );
            // SAFETY: created above from this instance.
            unsafe { debug_utils.destroy_debug_utils_messenger(messenger, None) };
            outcome
        }
        Err(e) => Err(format!("vkCreateDebugUtilsMessengerEXT failed: {e:?}")),
    };
    // SAFETY: every child object was destroyed above.
    unsafe { instance.destroy_instance(None) };
    let messages = messages.into_inner().unwrap_or_default();
    match outcome {
        Ok(()) if messages.is_empty() => Ok(()),
        outcome => Err(messages
            .into_iter()
            .chain(outcome.err())
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

unsafe extern "system" fn collect_message(
    _severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes valid callback data, and `user` is the `Mutex` given at
    // instance creation, alive until the instance is destroyed.
    unsafe {
        if let (Some(data), Some(messages)) =
            (data.as_ref(), (user as *const Mutex<Vec<String>>).as_ref())
        {
            let text = data
                .message_as_c_str()
                .map(|m| m.to_string_lossy().into_owned());
            if let (Some(text), Ok(mut list)) = (text, messages.lock()) {
                list.push(text);
            }
        }
    }
    // The validation layer skips a call whose check failed when the callback returns
    // true: the driver never sees the invalid pipeline (lavapipe may crash on one).
    vk::TRUE
}

fn create_pipeline(
    instance: &ash::Instance,
    spirv: &[u32],
    entry_point: &CStr,
    set_layouts: &[SetLayoutDesc],
    push_constant_size: u32,
) -> Result<(), String> {
    let vk_error = |what: &'static str| move |e: vk::Result| format!("{what} failed: {e:?}");
    // SAFETY: plain queries on a live instance.
    let physicals = unsafe { instance.enumerate_physical_devices() }
        .map_err(vk_error("vkEnumeratePhysicalDevices"))?;
    let lavapipe = physicals.into_iter().find_map(|physical| {
        // SAFETY: as above.
        let properties = unsafe { instance.get_physical_device_properties(physical) };
        // SAFETY: as above.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))?;
        vk_string(&properties.device_name)
            .starts_with("llvmpipe")
            .then_some((physical, u32::try_from(family).ok()?))
    });
    let (physical, family) = lavapipe.ok_or_else(|| {
        format!("the Vulkan loader finds no lavapipe (llvmpipe) device; {INSTALL_HINT}")
    })?;
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family)
        .queue_priorities(&priorities)];
    let mut features11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut features12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut features = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut features11)
        .push_next(&mut features12);
    // SAFETY: both chained structures are core in Vulkan 1.2.
    unsafe { instance.get_physical_device_features2(physical, &mut features) };
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .push_next(&mut features);
    // SAFETY: `info` and its chain live across the call.
    let device = unsafe { instance.create_device(physical, &info, None) }
        .map_err(vk_error("vkCreateDevice"))?;

    let mut created_layouts = Vec::new();
    let result = (|| -> Result<(), String> {
        let count = set_layouts.iter().map(|s| s.set + 1).max().unwrap_or(0);
        for set in 0..count {
            let bindings: Vec<vk::DescriptorSetLayoutBinding<'_>> = set_layouts
                .iter()
                .filter(|s| s.set == set)
                .flat_map(|s| &s.bindings)
                .map(|b| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b.binding)
                        .descriptor_type(vk::DescriptorType::from_raw(b.descriptor_type))
                        .descriptor_count(b.descriptor_count)
                        .stage_flags(vk::ShaderStageFlags::from_raw(b.stage_flags))
                })
                .collect();
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            // SAFETY: `info` lives across the call.
            let layout = unsafe { device.create_descriptor_set_layout(&info, None) }
                .map_err(vk_error("vkCreateDescriptorSetLayout"))?;
            created_layouts.push(layout);
        }
        let push_constant_ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .size(push_constant_size)];
        let push_constant_ranges: &[vk::PushConstantRange] = if push_constant_size == 0 {
            &[]
        } else {
            &push_constant_ranges
        };
        let layout_info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&created_layouts)
            .push_constant_ranges(push_constant_ranges);
        // SAFETY: `layout_info` lives across the call.
        let pipeline_layout = unsafe { device.create_pipeline_layout(&layout_info, None) }
            .map_err(vk_error("vkCreatePipelineLayout"))?;
        let module_info = vk::ShaderModuleCreateInfo::default().code(spirv);
        // SAFETY: `module_info` lives across the call.
        let module = match unsafe { device.create_shader_module(&module_info, None) } {
            Ok(module) => module,
            Err(e) => {
                // SAFETY: the layout was created above and is unused.
                unsafe { device.destroy_pipeline_layout(pipeline_layout, None) };
                return Err(format!("vkCreateShaderModule failed: {e:?}"));
            }
        };
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(entry_point);
        let info = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(pipeline_layout)];
        // SAFETY: `info` lives across the call.
        let created =
            unsafe { device.create_compute_pipelines(vk::PipelineCache::null(), &info, None) };
        let outcome = match created {
            Ok(pipelines) => {
                for pipeline in pipelines {
                    // SAFETY: the pipeline was never used.
                    unsafe { device.destroy_pipeline(pipeline, None) };
                }
                Ok(())
            }
            Err((pipelines, e)) => {
                for pipeline in pipelines.into_iter().filter(|p| *p != vk::Pipeline::null()) {
                    // SAFETY: as above.
                    unsafe { device.destroy_pipeline(pipeline, None) };
                }
                Err(format!("vkCreateComputePipelines failed: {e:?}"))
            }
        };
        // SAFETY: the module and the layout are no longer used by any pipeline.
        unsafe {
            device.destroy_shader_module(module, None);
            device.destroy_pipeline_layout(pipeline_layout, None);
        }
        outcome
    })();
    // SAFETY: nothing uses the set layouts any more; the device has no other children.
    unsafe {
        for layout in created_layouts {
            device.destroy_descriptor_set_layout(layout, None);
        }
        device.destroy_device(None);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_shaders::{spirv_of, DOUBLE_PLUS_INDEX};

    fn storage(binding: u32) -> SetLayoutBindingDesc {
        SetLayoutBindingDesc {
            binding,
            descriptor_type: vk::DescriptorType::STORAGE_BUFFER.as_raw(),
            descriptor_count: 1,
            stage_flags: vk::ShaderStageFlags::COMPUTE.as_raw(),
        }
    }

    #[test]
    fn matching_layout_is_accepted_and_a_wrong_type_is_rejected() {
        let spirv = spirv_of(DOUBLE_PLUS_INDEX);
        let good = [SetLayoutDesc {
            set: 0,
            bindings: vec![storage(0), storage(1)],
        }];
        assert_eq!(
            check_compute_pipeline_layout(&spirv, "main", &good, 0),
            Ok(())
        );
        let mut uniform = storage(0);
        uniform.descriptor_type = vk::DescriptorType::UNIFORM_BUFFER.as_raw();
        let wrong = [SetLayoutDesc {
            set: 0,
            bindings: vec![uniform, storage(1)],
        }];
        let error = check_compute_pipeline_layout(&spirv, "main", &wrong, 0)
            .expect_err("a uniform buffer where the shader has a storage buffer");
        assert!(
            error.contains("VUID") || error.contains("descriptor"),
            "{error}"
        );
        let missing = [SetLayoutDesc {
            set: 0,
            bindings: vec![storage(0)],
        }];
        assert!(check_compute_pipeline_layout(&spirv, "main", &missing, 0).is_err());
    }
}
