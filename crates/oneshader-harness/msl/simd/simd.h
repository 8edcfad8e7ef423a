// simd/simd.h: the vector types of <metal_stdlib> are all MSL code needs from it.
#include <metal_stdlib>
