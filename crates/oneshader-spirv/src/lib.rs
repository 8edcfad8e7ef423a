//! oneshader-spirv
