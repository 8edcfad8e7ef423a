// A FidelityFX-style portability header: type aliases by macro, helpers spelled
// through token pasting, and a GPU/CPU switch, the way ffx_a.h is written.
#pragma once

#define A_GPU 1
#define A_HLSL 1

#if defined(A_GPU) && defined(A_HLSL)
  #define AP1 bool
  #define AF1 float
  #define AF2 float2
  #define AF3 float3
  #define AF4 float4
  #define AU1 uint
  #define AU2 uint2
  #define AU3 uint3
  #define AU4 uint4
  #define ASU1 int
  #define ASU2 int2
  #define AF1_AU1(x) asfloat(AU1(x))
  #define AU1_AF1(x) asuint(AF1(x))
  #define AF1_(x) AF1(x)
  #define AF2_(x) AF2(x, x)
  #define AF3_(x) AF3(x, x, x)
  #define AF4_(x) AF4(x, x, x, x)
  #define AU1_(x) AU1(x)
  #define AU2_(x) AU2(x, x)
  #define A_STATIC static
  #define A_INLINE
  #define A_MAX_ITER 4
#elif defined(A_GLSL)
  #error "GLSL is not this header's business"
#else
  #error "define A_GPU and A_HLSL"
#endif

#ifdef A_HALF
  #define AH1 min16float
  #define AH2 min16float2
  #define AH3 min16float3
  #define AH4 min16float4
#else
  #define AH1 AF1
  #define AH2 AF2
  #define AH3 AF3
  #define AH4 AF4
#endif

// Helpers defined once per width by pasting the suffix.
#define A_DEFINE_MIN3(T) T AMin3##T(T x, T y, T z) { return min(x, min(y, z)); }
#define A_DEFINE_MAX3(T) T AMax3##T(T x, T y, T z) { return max(x, max(y, z)); }
A_DEFINE_MIN3(AF1)
A_DEFINE_MIN3(AF3)
A_DEFINE_MAX3(AF1)
A_DEFINE_MAX3(AF3)

A_STATIC AF1 ASatF1(AF1 x) { return saturate(x); }
A_STATIC AF3 ASatF3(AF3 x) { return saturate(x); }
A_STATIC AF1 ARcpF1(AF1 x) { return rcp(x); }
A_STATIC AF1 ARsqF1(AF1 x) { return rsqrt(x); }
A_STATIC AU1 ABfe(AU1 src, AU1 off, AU1 bits) { AU1 mask = (1u << bits) - 1u; return (src >> off) & mask; }
A_STATIC AU1 ABfiM(AU1 src, AU1 ins, AU1 bits) { AU1 mask = (1u << bits) - 1u; return (ins & mask) | (src & (~mask)); }
A_STATIC AF1 ALerpF1(AF1 x, AF1 y, AF1 a) { return lerp(x, y, a); }
A_STATIC AF3 AMedian3F3(AF3 a, AF3 b, AF3 c) { return max(min(a, b), min(max(a, b), c)); }
