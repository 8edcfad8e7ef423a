// oneshader: -E CSMain -T cs_6_0 -I include
// oneshader: -E CSMain -T cs_6_0 -I include -D A_HALF
// A FidelityFX-style compute pass: the portability header chooses the types, the
// helpers come from token-pasted macros, and -D A_HALF switches to min16float.
#include "ffx_a.h"

RWStructuredBuffer<AF4> Output : register(u0);
StructuredBuffer<AF4> Input : register(t1);

A_STATIC const AU1 kCount = 64u;

A_INLINE AH3 Tonemap(AH3 c)
{
    AH1 peak = AH1(AMax3AF1(AF1(c.r), AF1(c.g), AF1(c.b)));
    return c * AH1(ARcpF1(AF1(peak) + 1.0));
}

[numthreads(64, 1, 1)]
void CSMain(AU3 id : SV_DispatchThreadID)
{
    AF4 v = Input[id.x % kCount];
    AF3 c = AF3(Tonemap(AH3(v.rgb)));
    c = ASatF3(c + AF3_(0.01));
    AU1 bits = AU1_AF1(c.r);
    bits = ABfiM(bits, ABfe(bits, 8u, 4u), 4u);
    AF1 lo = AMin3AF1(c.r, c.g, c.b);
    AF3 med = AMedian3F3(c, AF3_(0.5), AF3(lo, lo, lo));
    [unroll]
    for (AU1 i = 0; i < A_MAX_ITER; i++)
        med = ALerpF1(med.x, 1.0, 0.25) * med;
    Output[id.x] = AF4(med, AF1_AU1(bits) + ARsqF1(v.a + 1.0));
}
