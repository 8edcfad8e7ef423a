//! Runs Compact (keep the values above 0.5, one atomic per wave) on the first adapter
//! wgpu finds, with the WGSL, layout and features oneshader-build generated, and prints
//! the input, the count and the kept values (in the order the GPU wrote them).

mod shaders {
    include!(concat!(env!("OUT_DIR"), "/shaders.rs"));
}

use shaders::compact::cs_main as compact;
use wgpu::util::DeviceExt;

/// The number of input values: 16 workgroups.
const VALUE_COUNT: u32 = 1024;

fn main() {
    if let Err(message) = pollster::block_on(run()) {
        eprintln!("compact-wgpu: {message}");
        std::process::exit(1);
    }
}

/// Values in [0, 1) from a fixed linear congruential sequence.
fn input_values() -> Vec<f32> {
    let mut state: u32 = 12345;
    (0..VALUE_COUNT)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32
        })
        .collect()
}

async fn run() -> Result<(), String> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions::default())
        .await
        .map_err(|e| format!("no adapter: {e}"))?;
    let info = adapter.get_info();
    // oneshader's own outputs go to the driver as they are (naga can't take wave code).
    let required = compact::required_features() | wgpu::Features::PASSTHROUGH_SHADERS;
    if !adapter.features().contains(required) {
        return Err(format!(
            "{} lacks {:?}",
            info.name,
            required - adapter.features()
        ));
    }
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("compact"),
            required_features: required,
            ..Default::default()
        })
        .await
        .map_err(|e| format!("no device: {e}"))?;
    println!("adapter: {} ({:?})", info.name, info.backend);

    let values = input_values();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let values_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("Values"),
        contents: &bytes(&values),
        usage: storage,
    });
    let kept_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("Kept"),
        contents: &bytes(&vec![-1.0; values.len()]),
        usage: storage,
    });
    let count_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("Count"),
        contents: &0u32.to_le_bytes(),
        usage: storage,
    });
    let buffer_of = |name: &str| match name {
        "Values" => Some(&values_buffer),
        "Kept" => Some(&kept_buffer),
        "Count" => Some(&count_buffer),
        _ => None,
    };

    // The layout is the generated one, never 'auto'.
    let bind_group_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("compact group 0"),
        entries: &compact::bind_group_layout_entries(0),
    });
    let mut entries = Vec::new();
    for binding in compact::BINDINGS {
        let buffer = buffer_of(binding.name).ok_or(format!("no buffer for {}", binding.name))?;
        entries.push(wgpu::BindGroupEntry {
            binding: binding.binding,
            resource: buffer.as_entire_binding(),
        });
    }
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("compact"),
        layout: &bind_group_layout,
        entries: &entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("compact"),
        bind_group_layouts: &[Some(&bind_group_layout)],
        immediate_size: 0,
    });
    // SAFETY: the device has PASSTHROUGH_SHADERS, and the pipeline below uses the entry
    // point's own generated layout.
    let module = unsafe { compact::create_shader_module_passthrough(&device) };
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("compact"),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some(compact::ENTRY_POINT),
        compilation_options: Default::default(),
        cache: None,
    });

    let readback = |size: u64| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        })
    };
    let kept_readback = readback(kept_buffer.size());
    let count_readback = readback(count_buffer.size());
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(VALUE_COUNT.div_ceil(compact::WORKGROUP_SIZE[0]), 1, 1);
    }
    encoder.copy_buffer_to_buffer(&kept_buffer, 0, &kept_readback, 0, kept_buffer.size());
    encoder.copy_buffer_to_buffer(&count_buffer, 0, &count_readback, 0, count_buffer.size());
    queue.submit([encoder.finish()]);

    let kept = read(&device, &kept_readback)?;
    let count = read(&device, &count_readback)?;
    let count = count.first().map_or(0, |c| c.to_bits()) as usize;
    let kept: Vec<f32> = kept.into_iter().take(count).collect();
    println!("values: {values:?}");
    println!("count: {count}");
    println!("kept: {kept:?}");
    Ok(())
}

/// Maps `buffer` and returns its contents as f32 words (bit patterns kept).
fn read(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Result<Vec<f32>, String> {
    let slice = buffer.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = sender.send(result);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| format!("poll: {e}"))?;
    receiver
        .recv()
        .map_err(|e| e.to_string())?
        .map_err(|e| format!("map: {e}"))?;
    let data = slice.get_mapped_range().map_err(|e| format!("map: {e}"))?;
    let words = data
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    drop(data);
    buffer.unmap();
    Ok(words)
}
