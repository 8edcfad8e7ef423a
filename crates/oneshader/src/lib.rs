//! oneshader
