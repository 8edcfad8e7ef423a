// Runs one WGSL job for oneshader-harness on WebGPU (Dawn, from the npm `webgpu` package).
//
// Input (stdin, JSON):
//   { "mode": "run" | "draw" | "validate", "wgsl": "...", "entryPoint": "main",
//     "workgroups": [x, y, z], "features": ["subgroups"],
//     "buffers": [{ "set": 0, "binding": 0, "kind": "storage" | "read-only-storage" | "uniform",
//                   "data": "<base64>" },
//                 { "set", "binding", "kind": "sampled-texture" | "storage-texture", "width", "height",
//                   "format": "rgba32float" | "rgba8unorm" | "r32float" | "r32uint",
//                   "access": "read-only" | "write-only" | "read-write" (storage textures),
//                   "data": "<base64>" (tightly packed rows) },
//                 { "set", "binding", "kind": "sampler", "filter": "nearest" | "linear" }] }
//   A draw ("mode": "draw") runs "wgsl"/"entryPoint" as the vertex shader and adds
//   "draw": { "fragmentWgsl", "fragmentEntry", "width", "height", "targets": [format, ...],
//             "vertexCount", "instanceCount" }: a triangle list without vertex buffers into
//   render targets cleared to zero, front faces clockwise (D3D's convention).
// Output (stdout): one line `ONESHADER_RESULT <json>`, where <json> is
//   { "ok": true, "buffers": ["<base64>", ...], "targets": [...] (draws), "device": {...} }
//   or { "ok": false, "error": "..." }.
// The process always ends with process.exit: Dawn may keep the event loop alive.

import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);

const RESULT_MARKER = 'ONESHADER_RESULT ';

// Dawn crashes at random when the object `create()` returns is garbage-collected while its
// adapter or device is in use, so it (and what it made) stays referenced here until exit.
const keepAlive = {};

function finish(result) {
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`, () => process.exit(0));
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// The limits a job may need beyond WebGPU's defaults, raised to what the adapter offers.
const RAISED_LIMITS = [
  'maxBindGroups',
  'maxStorageBuffersPerShaderStage',
  'maxUniformBuffersPerShaderStage',
  'maxStorageBufferBindingSize',
  'maxUniformBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupSizeZ',
  'maxComputeWorkgroupsPerDimension',
  'maxColorAttachmentBytesPerSample',
];

// Opens a device with `features` (a list of names, or 'all' for every adapter feature).
async function openDevice(wanted) {
  keepAlive.gpu = create(['backend=vulkan']);
  const adapter = await keepAlive.gpu.requestAdapter();
  if (!adapter) {
    throw new Error('no WebGPU adapter on the Vulkan driver given: run scripts/install-test-deps.sh');
  }
  keepAlive.adapter = adapter;
  const features = wanted === 'all' ? [...adapter.features] : wanted;
  const missing = features.filter((f) => !adapter.features.has(f));
  if (missing.length > 0) {
    throw new Error(
      `the adapter lacks the features [${missing.join(', ')}]; ` +
        `it has [${[...adapter.features].join(', ')}]`,
    );
  }
  const requiredLimits = {};
  for (const name of RAISED_LIMITS) {
    if (typeof adapter.limits[name] === 'number') {
      requiredLimits[name] = adapter.limits[name];
    }
  }
  const device = await adapter.requestDevice({ requiredFeatures: features, requiredLimits });
  keepAlive.device = device;
  const uncaptured = [];
  device.onuncapturederror = (event) => uncaptured.push(event.error.message);
  const info = adapter.info;
  const describe = () => ({
    name: [info.vendor, info.architecture, info.device, info.description]
      .filter((s) => s)
      .join(' '),
    subgroupMinSize: info.subgroupMinSize ?? 0,
    subgroupMaxSize: info.subgroupMaxSize ?? 0,
    features: [...device.features],
  });
  return { adapter, device, uncaptured, describe };
}

function formatMessages(messages) {
  return messages.map((m) => `${m.lineNum}:${m.linePos}: ${m.type}: ${m.message}`).join('\n');
}

// Compiles the WGSL; throws with every error message when it does not compile.
async function compile(device, wgsl) {
  const module = device.createShaderModule({ code: wgsl });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length > 0) {
    throw new Error(`WGSL compilation failed:\n${formatMessages(errors)}`);
  }
  return module;
}

async function validate(request) {
  // Validation accepts whatever this Dawn can run, so the device gets every adapter feature.
  const { device } = await openDevice('all');
  await compile(device, request.wgsl);
  return { ok: true };
}

const BUFFER_TYPES = new Set(['storage', 'read-only-storage', 'uniform']);

// The bind group layout entry of one binding, for a compute shader or for a draw (a
// writable storage buffer is visible to the fragment stage only, as WebGPU requires).
function layoutEntry(b, draw = false) {
  const visibility = !draw
    ? GPUShaderStage.COMPUTE
    : b.kind === 'storage'
      ? GPUShaderStage.FRAGMENT
      : GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT;
  if (BUFFER_TYPES.has(b.kind)) {
    return { binding: b.binding, visibility, buffer: { type: b.kind } };
  }
  if (b.kind === 'sampled-texture') {
    const sampleType =
      b.format === 'r32uint' ? 'uint' : b.format === 'rgba8unorm' ? 'float' : 'unfilterable-float';
    return { binding: b.binding, visibility, texture: { sampleType, viewDimension: '2d' } };
  }
  if (b.kind === 'storage-texture') {
    return {
      binding: b.binding,
      visibility,
      storageTexture: { access: b.access, format: b.format, viewDimension: '2d' },
    };
  }
  if (b.kind === 'sampler') {
    return {
      binding: b.binding,
      visibility,
      sampler: { type: b.filter === 'linear' ? 'filtering' : 'non-filtering' },
    };
  }
  throw new Error(`unknown binding kind ${b.kind}`);
}

const TEXEL_SIZES = {
  rgba32float: 16,
  rgba8unorm: 4,
  r32float: 4,
  r32uint: 4,
  r32sint: 4,
  rg32sint: 8,
  rgba32uint: 16,
};

// Creates the GPU object of one binding, with what reads it back after the dispatch.
function createResource(device, b) {
  const bytes = Buffer.from(b.data ?? '', 'base64');
  if (b.kind === 'sampler') {
    const sampler = device.createSampler({
      magFilter: b.filter,
      minFilter: b.filter,
      addressModeU: 'clamp-to-edge',
      addressModeV: 'clamp-to-edge',
    });
    return { resource: sampler, length: 0 };
  }
  if (b.kind === 'sampled-texture' || b.kind === 'storage-texture') {
    const texture = device.createTexture({
      size: [b.width, b.height],
      format: b.format,
      usage:
        (b.kind === 'sampled-texture'
          ? GPUTextureUsage.TEXTURE_BINDING
          : GPUTextureUsage.STORAGE_BINDING) |
        GPUTextureUsage.COPY_SRC |
        GPUTextureUsage.COPY_DST,
    });
    const rowBytes = b.width * TEXEL_SIZES[b.format];
    device.queue.writeTexture({ texture }, bytes, { bytesPerRow: rowBytes }, [b.width, b.height]);
    // Copies out of textures need rows aligned to 256 bytes.
    const paddedRow = Math.ceil(rowBytes / 256) * 256;
    const readback = device.createBuffer({
      size: paddedRow * b.height,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    return {
      resource: texture.createView(),
      length: bytes.length,
      copyOut: (encoder) =>
        encoder.copyTextureToBuffer(
          { texture },
          { buffer: readback, bytesPerRow: paddedRow },
          [b.width, b.height],
        ),
      readback,
      unpad: (mapped) => {
        const out = new Uint8Array(rowBytes * b.height);
        for (let y = 0; y < b.height; y++) {
          out.set(mapped.subarray(y * paddedRow, y * paddedRow + rowBytes), y * rowBytes);
        }
        return out;
      },
    };
  }
  const size = Math.max(4, Math.ceil(bytes.length / 4) * 4);
  const usage =
    (b.kind === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE) |
    GPUBufferUsage.COPY_SRC |
    GPUBufferUsage.COPY_DST;
  const buffer = device.createBuffer({ size, usage, mappedAtCreation: true });
  new Uint8Array(buffer.getMappedRange()).set(bytes);
  buffer.unmap();
  const readback = device.createBuffer({
    size,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  return {
    resource: { buffer },
    length: bytes.length,
    copyOut: (encoder) => encoder.copyBufferToBuffer(buffer, 0, readback, 0, size),
    readback,
    unpad: (mapped) => mapped.slice(0, bytes.length),
  };
}

// The bind group layouts of a job's bindings, one per set, for a dispatch or a draw.
function createLayouts(device, buffers, draw) {
  const groupCount = Math.max(0, ...buffers.map((b) => b.set + 1));
  const layouts = [];
  for (let group = 0; group < groupCount; group++) {
    const entries = buffers.filter((b) => b.set === group).map((b) => layoutEntry(b, draw));
    layouts.push(device.createBindGroupLayout({ entries }));
  }
  return layouts;
}

// One bind group per layout, binding each resource where its binding says.
function createBindGroups(device, buffers, layouts, gpuBuffers) {
  return layouts.map((groupLayout, group) =>
    device.createBindGroup({
      layout: groupLayout,
      entries: buffers
        .map((b, index) => ({ b, index }))
        .filter(({ b }) => b.set === group)
        .map(({ b, index }) => ({ binding: b.binding, resource: gpuBuffers[index].resource })),
    }),
  );
}

// Maps each read-back buffer and returns its bytes in base64.
async function readBack(resources) {
  const out = [];
  for (const { readback, unpad } of resources) {
    if (!readback) {
      out.push('');
      continue;
    }
    await readback.mapAsync(GPUMapMode.READ);
    const bytes = unpad(new Uint8Array(readback.getMappedRange()));
    readback.unmap();
    out.push(Buffer.from(bytes).toString('base64'));
  }
  return out;
}

// Records every resource's copy out, submits, and fails on the validation scope's error.
async function submitChecked(device, encoder, resources) {
  for (const { copyOut } of resources) {
    copyOut?.(encoder);
  }
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) {
    throw new Error(`WebGPU validation failed: ${error.message}`);
  }
}

// Fails when the device reported errors outside any scope.
function checkUncaptured(uncaptured) {
  if (uncaptured.length > 0) {
    throw new Error(`WebGPU errors: ${uncaptured.join('\n')}`);
  }
}

async function run(request) {
  const { device, uncaptured, describe } = await openDevice(request.features ?? []);
  const module = await compile(device, request.wgsl);

  device.pushErrorScope('validation');
  const layouts = createLayouts(device, request.buffers, false);
  const layout = device.createPipelineLayout({ bindGroupLayouts: layouts });
  const pipeline = device.createComputePipeline({
    layout,
    compute: { module, entryPoint: request.entryPoint },
  });

  const gpuBuffers = request.buffers.map((b) => createResource(device, b));
  const bindGroups = createBindGroups(device, request.buffers, layouts, gpuBuffers);

  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  bindGroups.forEach((group, index) => pass.setBindGroup(index, group));
  const [x, y, z] = request.workgroups;
  pass.dispatchWorkgroups(x, y, z);
  pass.end();
  await submitChecked(device, encoder, gpuBuffers);
  const buffers = await readBack(gpuBuffers);
  checkUncaptured(uncaptured);
  return { ok: true, buffers, device: describe() };
}

// A render target cleared to zero, and what reads it back after the draw.
function createTarget(device, format, width, height) {
  const texture = device.createTexture({
    size: [width, height],
    format,
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  const rowBytes = width * TEXEL_SIZES[format];
  const paddedRow = Math.ceil(rowBytes / 256) * 256;
  const readback = device.createBuffer({
    size: paddedRow * height,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  return {
    view: texture.createView(),
    copyOut: (encoder) =>
      encoder.copyTextureToBuffer(
        { texture },
        { buffer: readback, bytesPerRow: paddedRow },
        [width, height],
      ),
    readback,
    unpad: (mapped) => {
      const out = new Uint8Array(rowBytes * height);
      for (let y = 0; y < height; y++) {
        out.set(mapped.subarray(y * paddedRow, y * paddedRow + rowBytes), y * rowBytes);
      }
      return out;
    },
  };
}

async function draw(request) {
  const { device, uncaptured, describe } = await openDevice(request.features ?? []);
  const d = request.draw;
  const vertexModule = await compile(device, request.wgsl);
  const fragmentModule = await compile(device, d.fragmentWgsl);

  device.pushErrorScope('validation');
  const layouts = createLayouts(device, request.buffers, true);
  const layout = device.createPipelineLayout({ bindGroupLayouts: layouts });
  const pipeline = device.createRenderPipeline({
    layout,
    vertex: { module: vertexModule, entryPoint: request.entryPoint },
    fragment: {
      module: fragmentModule,
      entryPoint: d.fragmentEntry,
      targets: d.targets.map((format) => ({ format })),
    },
    primitive: { topology: 'triangle-list', frontFace: 'cw', cullMode: 'none' },
  });
  const gpuBuffers = request.buffers.map((b) => createResource(device, b));
  const bindGroups = createBindGroups(device, request.buffers, layouts, gpuBuffers);
  const targets = d.targets.map((format) => createTarget(device, format, d.width, d.height));

  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: targets.map((t) => ({
      view: t.view,
      loadOp: 'clear',
      storeOp: 'store',
      clearValue: [0, 0, 0, 0],
    })),
  });
  pass.setPipeline(pipeline);
  bindGroups.forEach((group, index) => pass.setBindGroup(index, group));
  pass.draw(d.vertexCount, d.instanceCount);
  pass.end();
  await submitChecked(device, encoder, [...gpuBuffers, ...targets]);
  const buffers = await readBack(gpuBuffers);
  const texels = await readBack(targets);
  checkUncaptured(uncaptured);
  return { ok: true, buffers, targets: texels, device: describe() };
}

async function main() {
  const request = JSON.parse(await readStdin());
  if (request.mode === 'validate') {
    return validate(request);
  }
  if (request.mode === 'run') {
    return run(request);
  }
  if (request.mode === 'draw') {
    return draw(request);
  }
  throw new Error(`unknown mode ${request.mode}`);
}

main().then(finish, (error) => finish({ ok: false, error: String(error?.message ?? error) }));
