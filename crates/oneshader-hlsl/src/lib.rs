//! oneshader-hlsl
