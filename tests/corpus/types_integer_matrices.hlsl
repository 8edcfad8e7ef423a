// oneshader: -E main -T cs_6_0
// Integer and bool matrices (DXC lowers them to arrays of vectors, as we do): int, uint,
// bool and matrix<int, R, C> locals, rows and elements read and written, per-component
// operators and comparisons, mul and transpose, conversions to and from float matrices,
// static const and groupshared matrices, matrix parameters and results. In constant
// buffers they are OSH0310 (tests/diagnostics/OSH0310-integer-matrix-in-buffer.hlsl).
RWStructuredBuffer<int4> Out : register(u0);
groupshared uint2x4 Tiles[4];
static const matrix<int, 3, 3> Identity = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };

uint2x2 Swap(uint2x2 m)
{
    return uint2x2(m[1], m[0]);
}

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int2x2 im = int2x2(1, -1, 2, -2);
    uint3x3 um = (uint3x3)0;
    um[id.x % 3] = uint3(id.x, 1, 2);
    int3x3 product = mul(Identity, (int3x3)um) + Identity;
    bool2x2 less = im < int2x2(0, 0, 3, 3);
    Tiles[id.x] = uint2x4(id.xxxx, uint4(1, 2, 3, 4)) << 1;
    GroupMemoryBarrierWithGroupSync();
    uint2x4 tile = Tiles[(id.x + 1) % 4] ^ 5;
    uint2x2 swapped = Swap((uint2x2)tile);
    float2x2 scaled = (float2x2)im / 4.0;
    int3 column = mul(int3(1, 1, 1), product);
    Out[id.x] = int4(im[0], im[1]) + (int)um[2][2] + product._m11 + (int)less._m10;
    Out[id.x + 4] = int4(column, (int)swapped._m01) + int4(transpose(product)[0], (int)(scaled._m11 * 8));
}
