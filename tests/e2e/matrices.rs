//! `tests/cases/matrix_cbuffer.hlsl` against D3D's meaning: the CPU reads each matrix
//! from the raw cbuffer words as D3D packs them (column_major: column c of a float4x4
//! at words 4c..4c+3; row_major: row r at words 4r..4r+3) and computes every output.
//! Inputs are small integers, so every result is exact on any device.

use oneshader::CompileOptions;
use oneshader_e2e::{cases_dir, compile_and_validate, run, Rng, Runtime};
use oneshader_harness::{f32_bytes, u32_bytes};

type Mat = [[f32; 4]; 4];

fn mul_mv(m: &Mat, v: [f32; 4], rows: usize, cols: usize) -> Vec<f32> {
    (0..rows)
        .map(|r| (0..cols).map(|c| m[r][c] * v[c]).sum())
        .collect()
}

fn mul_vm(v: [f32; 4], m: &Mat, rows: usize, cols: usize) -> Vec<f32> {
    (0..cols)
        .map(|c| (0..rows).map(|r| v[r] * m[r][c]).sum())
        .collect()
}

fn det(m: &Mat) -> f32 {
    fn det3(a: [[f32; 3]; 3]) -> f32 {
        a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
            - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
    }
    (0..4)
        .map(|c| {
            let minor = std::array::from_fn(|r| {
                let cols: Vec<usize> = (0..4).filter(|&k| k != c).collect();
                std::array::from_fn(|k| m[r + 1][cols[k]])
            });
            let sign = if c % 2 == 0 { 1.0 } else { -1.0 };
            sign * m[0][c] * det3(minor)
        })
        .sum()
}

#[test]
fn cbuffer_matrices_multiply_as_on_d3d() {
    let compiled = compile_and_validate(
        &cases_dir().join("matrix_cbuffer.hlsl"),
        &CompileOptions::default(),
    );
    for (seed, runtime) in [5u32, 6, 7, 8].into_iter().zip(Runtime::selected()) {
        let mut rng = Rng::new(seed);
        let words: Vec<f32> = (0..52).map(|_| (rng.next_u32() % 7) as f32 - 3.0).collect();
        let row = (seed % 4) as usize;
        // Offsets: M at 0, R at 64, N at 128 (60 bytes), V at 192, Row at 208.
        let m: Mat = std::array::from_fn(|r| std::array::from_fn(|c| words[c * 4 + r]));
        let rm: Mat = std::array::from_fn(|r| std::array::from_fn(|c| words[16 + r * 4 + c]));
        let mut n: Mat = [[0.0; 4]; 4];
        for (r, n_row) in n.iter_mut().enumerate().take(3) {
            for (c, value) in n_row.iter_mut().enumerate() {
                *value = words[32 + c * 4 + r];
            }
        }
        let v = [words[48], words[49], words[50], words[51]];
        let mut expected = Vec::new();
        expected.extend(mul_mv(&m, v, 4, 4));
        expected.extend(mul_vm(v, &m, 4, 4));
        expected.extend(mul_mv(&rm, v, 4, 4));
        expected.extend(mul_vm(v, &rm, 4, 4));
        expected.extend(mul_mv(&n, v, 3, 4));
        expected.push(0.0);
        expected.extend(mul_vm(v, &n, 3, 4));
        expected.extend(m[row]);
        expected.extend(rm[row]);
        expected.extend([n[2][3], n[2][2], n[2][1], n[1][2]]);
        expected.extend([m[0][1], m[1][0], rm[0][1], rm[1][0]]);
        expected.extend((0..4).map(|r| m[r][1]));
        expected.extend((0..4).map(|c| (0..4).map(|k| m[row][k] * rm[k][c]).sum::<f32>()));
        let mut local = m;
        local[row] = v;
        local[3][3] = 9.0;
        expected.extend((0..4).map(|c| local[row][c] + local[3][c]));
        expected.extend([det(&m), det(&rm), m[row][2], rm[row][1]]);

        let mut cbuffer = f32_bytes(&words);
        cbuffer.extend(u32_bytes(&[row as u32, 0, 0, 0]));
        let buffers = vec![
            ("Params".to_string(), cbuffer),
            ("Out".to_string(), vec![0; expected.len() * 4]),
        ];
        let output = run(&compiled, runtime, &buffers, [1, 1, 1])
            .unwrap_or_else(|e| panic!("matrix_cbuffer on {runtime:?}: {e}"));
        let got = output.f32s(1).expect("Out");
        assert_eq!(got, expected, "matrix_cbuffer on {runtime:?}, row {row}");
    }
}
