// oneshader: -E main -T cs_6_0
// Interlocked* on RWStructuredBuffer elements, int and
// uint, and on groupshared memory.
RWStructuredBuffer<int> Bins : register(u0);
RWStructuredBuffer<uint> Flat : register(u1);
StructuredBuffer<int> Values : register(t3);
groupshared uint gsHist[16];
groupshared int gsMin;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    if (gi < 16)
        gsHist[gi] = 0;
    if (gi == 0)
        gsMin = 0x7FFFFFFF;
    GroupMemoryBarrierWithGroupSync();
    int v = Values[id.x];
    uint bin = uint(v) & 15;
    uint prev;
    InterlockedAdd(gsHist[bin], 1, prev);
    InterlockedMin(gsMin, v);
    InterlockedAdd(Bins[bin * 3], 1);
    InterlockedMin(Bins[bin * 3 + 1], v);
    InterlockedMax(Bins[bin * 3 + 2], v);
    InterlockedOr(Flat[0], 1u << bin);
    InterlockedXor(Flat[1], uint(v));
    InterlockedAnd(Flat[2], ~prev);
    uint old;
    InterlockedExchange(Flat[3 + bin], id.x, old);
    InterlockedCompareExchange(Flat[20], 0, id.x, old);
    InterlockedCompareStore(Flat[21], 0, old);
    GroupMemoryBarrierWithGroupSync();
    if (gi < 16)
        InterlockedAdd(Flat[32 + gi], gsHist[gi]);
    if (gi == 0)
        InterlockedMin(Bins[1], gsMin);
}
