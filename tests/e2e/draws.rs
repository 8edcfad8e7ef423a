//! Vertex and pixel shaders executed: `graphics/draw_interface.hlsl` is compiled to every
//! target (each validated), drawn from SPIR-V on lavapipe and SwiftShader and from WGSL on Dawn
//! (over SwiftShader and Mesa 25's lavapipe), and every texel of its render targets is checked
//! against the values D3D gives: pixel centres in
//! `SV_Position`, linear and flat varyings, `SV_VertexID`/`SV_InstanceID`, a varying fed from
//! a buffer, and `SV_IsFrontFace` of a clockwise triangle.

use std::path::Path;

use oneshader::{CompileOptions, Target};
use oneshader_e2e::{bind_buffers, compile_and_validate, Compiled, Runtime};
use oneshader_harness::{
    f32_bytes, f32s_of, run_draw, run_wgsl_draw, u32s_of, DrawJob, DrawOutput, TexelFormat,
    WgslDrawJob,
};

const WIDTH: u32 = 4;
const HEIGHT: u32 = 4;

fn compiled(entry: &str) -> Compiled {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("graphics/draw_interface.hlsl");
    let options = CompileOptions {
        entry_point: Some(entry.into()),
        ..CompileOptions::default()
    };
    compile_and_validate(&path, &options)
}

const TARGETS: [TexelFormat; 3] = [
    TexelFormat::Rgba32Float,
    TexelFormat::R32Uint,
    TexelFormat::Rgba32Float,
];

/// Draws the triangle twice (two instances) on `runtime`.
fn draw(runtime: Runtime, vertex: &Compiled, pixel: &Compiled) -> Result<DrawOutput, String> {
    let colors: Vec<f32> = COLORS.iter().flatten().copied().collect();
    let buffers = bind_buffers(vertex, &[("Colors".to_string(), f32_bytes(&colors))]);
    match runtime {
        Runtime::Vulkan(driver) => run_draw(
            driver,
            &DrawJob {
                vertex_spirv: vertex.spirv(),
                vertex_entry: vertex.entry.clone(),
                fragment_spirv: pixel.spirv(),
                fragment_entry: pixel.entry.clone(),
                width: WIDTH,
                height: HEIGHT,
                targets: TARGETS.to_vec(),
                vertex_count: 3,
                instance_count: 2,
                buffers,
            },
        ),
        Runtime::Dawn(driver) => run_wgsl_draw(&WgslDrawJob {
            vertex_wgsl: vertex.text(Target::Wgsl).to_string(),
            vertex_entry: vertex.entry.clone(),
            fragment_wgsl: pixel.text(Target::Wgsl).to_string(),
            fragment_entry: pixel.entry.clone(),
            width: WIDTH,
            height: HEIGHT,
            targets: TARGETS.to_vec(),
            vertex_count: 3,
            instance_count: 2,
            buffers,
            driver,
        }),
    }
}

/// The vertex colours: the interpolated colour of a texel is their barycentric mix.
const COLORS: [[f32; 4]; 3] = [
    [0.0, 0.0, 0.0, 1.0],
    [0.0, 8.0, 0.0, 1.0],
    [8.0, 0.0, 4.0, 1.0],
];

fn close(actual: f32, expected: f32) -> bool {
    (actual - expected).abs() <= 1e-4 * expected.abs().max(1.0)
}

#[test]
fn a_draw_gives_d3d_values_texel_by_texel() {
    let (vertex, pixel) = (compiled("VSMain"), compiled("PSMain"));
    let mut failures = Vec::new();
    for driver in Runtime::selected() {
        let output = match draw(driver, &vertex, &pixel) {
            Ok(output) => output,
            Err(e) => {
                failures.push(format!("{driver:?}: {e}"));
                continue;
            }
        };
        let coordinates = f32s_of(&output.targets[0]);
        let ids = u32s_of(&output.targets[1]);
        let color = f32s_of(&output.targets[2]);
        for y in 0..HEIGHT as usize {
            for x in 0..WIDTH as usize {
                let texel = y * WIDTH as usize + x;
                let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
                // D3D: y up in clip space, rows counted from the top.
                let (u, v) = (cx / WIDTH as f32, 1.0 - cy / HEIGHT as f32);
                let expected = [cx, cy, u, v];
                let actual = &coordinates[texel * 4..texel * 4 + 4];
                if !actual.iter().zip(&expected).all(|(&a, &e)| close(a, e)) {
                    failures.push(format!(
                        "{driver:?}: texel ({x}, {y}): SV_Position.xy and uv are {actual:?}, D3D gives {expected:?}"
                    ));
                }
                // The second instance's triangle, a front face, drawn last; flat values come
                // from its first vertex.
                if ids[texel] != 1101 {
                    failures.push(format!(
                        "{driver:?}: texel ({x}, {y}): ids {} (vertex * 10 + front face), expected 1101",
                        ids[texel]
                    ));
                }
                // Barycentric weights of the pixel centre in the clip-space triangle
                // (-1,-1), (-1,3), (3,-1): position = v0 + b1 (0,4) + b2 (4,0).
                let (ndc_x, ndc_y) = (u * 2.0 - 1.0, v * 2.0 - 1.0);
                let b2 = (ndc_x + 1.0) / 4.0;
                let b1 = (ndc_y + 1.0) / 4.0;
                let b0 = 1.0 - b1 - b2;
                let expected: Vec<f32> = (0..4)
                    .map(|c| b0 * COLORS[0][c] + b1 * COLORS[1][c] + b2 * COLORS[2][c])
                    .collect();
                let actual = &color[texel * 4..texel * 4 + 4];
                if !actual.iter().zip(&expected).all(|(&a, &e)| close(a, e)) {
                    failures.push(format!(
                        "{driver:?}: texel ({x}, {y}): colour {actual:?}, expected {expected:?}"
                    ));
                }
            }
        }
        eprintln!("{driver:?}: {} texels checked", WIDTH * HEIGHT);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
