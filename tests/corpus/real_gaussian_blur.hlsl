// oneshader: -E BlurH -T cs_6_0
// oneshader: -E BlurV -T cs_6_0
// A separable Gaussian blur with a groupshared cache and halo: the tile is loaded
// with clamped coordinates, a barrier, then a 9-tap kernel from a static const table.
#define RADIUS 4
#define GROUP 64
#define CACHE (GROUP + 2 * RADIUS)
static const float kWeights[RADIUS + 1] = { 0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216 };

Texture2D<float4> Input : register(t0);
RWTexture2D<float4> Output : register(u1);
groupshared float4 gsCache[CACHE];

float4 Blur(uint center)
{
    float4 acc = gsCache[center] * kWeights[0];
    [unroll]
    for (int i = 1; i <= RADIUS; ++i)
        acc += (gsCache[center - i] + gsCache[center + i]) * kWeights[i];
    return acc;
}

void LoadRow(int2 base, uint gi, int2 dir, uint2 size)
{
    for (uint i = gi; i < CACHE; i += GROUP) {
        int2 p = base + dir * (int(i) - RADIUS);
        p = clamp(p, int2(0, 0), int2(size) - 1);
        gsCache[i] = Input.Load(int3(p, 0));
    }
}

[numthreads(GROUP, 1, 1)]
void BlurH(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex)
{
    uint2 size;
    Input.GetDimensions(size.x, size.y);
    int2 base = int2(gid.x * GROUP, gid.y);
    LoadRow(base, gi, int2(1, 0), size);
    GroupMemoryBarrierWithGroupSync();
    uint2 p = uint2(base) + uint2(gi, 0);
    if (p.x < size.x)
        Output[p] = Blur(gi + RADIUS);
}

[numthreads(1, GROUP, 1)]
void BlurV(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex)
{
    uint2 size;
    Input.GetDimensions(size.x, size.y);
    int2 base = int2(gid.x, gid.y * GROUP);
    LoadRow(base, gi, int2(0, 1), size);
    GroupMemoryBarrierWithGroupSync();
    uint2 p = uint2(base) + uint2(0, gi);
    if (p.y < size.y)
        Output[p] = Blur(gi + RADIUS);
}
