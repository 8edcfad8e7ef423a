// oneshader: -E main -T cs_6_0
// Pending (MSL only): Interlocked* on RWBuffer<uint>/<int> elements is OSH5101 in MSL 2.4 (no
// texture atomics); SPIR-V and WGSL compile and run it (tests/cases/typed_buffer_atomics).
RWBuffer<uint> Hist : register(u0);
RWBuffer<int> Extremes : register(u1);
Buffer<uint> Keys : register(t2);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint key = Keys[id.x];
    InterlockedAdd(Hist[key & 15], 1);
    int previous;
    InterlockedMax(Extremes[0], int(key), previous);
    InterlockedMin(Extremes[1], int(key));
}
