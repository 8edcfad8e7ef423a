// oneshader: -E main -T cs_6_0
// Pending (gap): Interlocked* on struct members of a RWStructuredBuffer (MSL needs atomic
// members), and a float3 packed after a float in a cbuffer (WGSL places it at 16).
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
