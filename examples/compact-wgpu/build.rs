use oneshader_build::{Builder, Target};

fn main() {
    Builder::new()
        .shader("../../shaders/Compact.hlsl")
        .targets(&[Target::SpirV, Target::Msl, Target::Wgsl])
        .build()
        .unwrap();
}
