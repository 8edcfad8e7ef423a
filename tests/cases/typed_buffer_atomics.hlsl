// Interlocked* on RWBuffer<uint> and RWBuffer<int> elements (SPIR-V: OpImageTexelPointer;
// WGSL: the emulating array holds atomics), mixed with plain reads and writes of the
// same buffers. MSL 2.4 has no texture atomics: the MSL compile is a diagnostic.
RWBuffer<uint> Hist : register(u0);
RWBuffer<int> Extremes : register(u1);
Buffer<uint> Keys : register(t2);
RWStructuredBuffer<uint> Seen : register(u3);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint key = Keys[id.x];
    InterlockedAdd(Hist[key & 15], 1);
    InterlockedOr(Hist[16], 1u << (key & 31));
    InterlockedMax(Extremes[0], int(key) - 100);
    InterlockedMin(Extremes[1], int(key) - 100);
    uint original;
    InterlockedExchange(Hist[17 + id.x], key, original);
    InterlockedCompareStore(Hist[81 + id.x], 5u, key);
    int before;
    InterlockedAdd(Extremes[2 + id.x], -int(id.x), before);
    Hist[150 + id.x] = id.x * 2;
    Seen[id.x * 3] = original;
    Seen[id.x * 3 + 1] = uint(before);
    Seen[id.x * 3 + 2] = Hist[17 + id.x] + Hist[150 + id.x];
}
