//! oneshader-ir
