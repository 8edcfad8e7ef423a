// Interlocked* on RWBuffer and RWTexture elements: SPIR-V compiles both; MSL 2.4 has no
// texture atomics (OSH5101 for each), WGSL none on textures (OSH5201; a RWBuffer's
// emulating array takes atomics).
RWBuffer<uint> Histogram : register(u0);
RWTexture2D<uint> Tiles : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    InterlockedAdd(Histogram[id.x & 15], 1);
    InterlockedMax(Tiles[id.xy], id.x);
}
