//! oneshader-harness
