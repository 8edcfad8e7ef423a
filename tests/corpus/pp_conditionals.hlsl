// oneshader: -E main -T cs_6_0
// oneshader: -E main -T cs_6_0 -D QUALITY=2
// oneshader: -E main -T cs_6_0 -D QUALITY=3 -D USE_WAVE
// oneshader: -E main -T cs_6_0 -D TILE=16
// #if/#ifdef/#ifndef/#elif/#else with defined(), integer arithmetic, comparisons,
// logical operators and nesting, chosen by -D.
#ifndef QUALITY
#define QUALITY 1
#endif
#ifndef TILE
#  define TILE 8
#endif

#if QUALITY >= 3 && defined(USE_WAVE)
#  define SAMPLES 16
#elif QUALITY == 2 || (QUALITY > 8 && !defined(USE_WAVE))
#  define SAMPLES 8
#elif defined QUALITY
#  define SAMPLES (2 << QUALITY)
#else
#  error "unreachable"
#endif

#if (TILE * TILE) % 64 != 0
#  error "TILE must make the group a multiple of 64"
#endif

#if TILE > 8
#  if TILE >= 16
#    define GROUP_X 16
#  else
#    define GROUP_X 12
#  endif
#else
#  define GROUP_X TILE
#endif

#undef UNUSED_MACRO
#ifdef UNUSED_MACRO
this line is skipped: not HLSL, and @ or ` are no errors here
#endif

RWStructuredBuffer<float> Out : register(u0);

[numthreads(GROUP_X, TILE, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float acc = 0;
    for (int i = 0; i < SAMPLES; ++i)
        acc += sin(float(i) * 0.1 + id.x);
#if defined(USE_WAVE)
    acc = WaveActiveSum(acc);
#endif
#if 0
    acc = garbage(;
#endif
    Out[id.y * 64 + id.x] = acc / SAMPLES;
}
