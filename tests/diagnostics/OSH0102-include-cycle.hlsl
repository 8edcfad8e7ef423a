#include "include/lighting.hlsli"
RWStructuredBuffer<float> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = Lambert(float3(0, 0, 1), float3(0, 0, 1));
}
