// oneshader: -E main -T cs_6_0 -I include
// #include with quotes (beside the file, then -I) and angle brackets (-I),
// #pragma once and an include guard, each header included twice.
#include "include/once_counter.hlsli"
#include <once_counter.hlsli>
#include <common_math.hlsli>
#include "include/common_math.hlsli"
#include <bindings.hlsli>

DECLARE_RO(float4, Colors, 0);
DECLARE_RW(float, Lumas, 1);

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float3 c = SrgbToLinear(Colors[id.x].rgb);
    Lumas[id.x] = Luminance(c) * INV_PI + SQR(c.r) + OnceCounterValue() * TWO_PI;
}
