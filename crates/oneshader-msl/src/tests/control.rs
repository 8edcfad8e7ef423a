//! Control flow, helper functions, groupshared data, barriers and atomics.
