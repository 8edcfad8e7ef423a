//! oneshader-wgsl
