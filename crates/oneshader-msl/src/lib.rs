//! oneshader-msl
