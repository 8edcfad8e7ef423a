// oneshader: -E main -T cs_6_0
// Interlocked* on struct members of a RWStructuredBuffer (MSL: a copy of the struct with atomic
// members), next to a float3 packed right after a float in a cbuffer.
struct Bin { uint count; int minValue; int maxValue; };
RWStructuredBuffer<Bin> Bins : register(u0);
cbuffer Sim : register(b1) { float DeltaTime; float3 Gravity; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int v = int(id.x * DeltaTime + Gravity.y);
    InterlockedAdd(Bins[id.x & 15].count, 1);
    InterlockedMin(Bins[id.x & 15].minValue, v);
    InterlockedMax(Bins[id.x & 15].maxValue, v);
}
