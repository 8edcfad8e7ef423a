// oneshader: -E main -T cs_6_0
// Multi-dimensional arrays: locals with initializer lists (nested and flat), static
// const tables, arrays of vectors and structs, dynamic indexing, arrays as parameters.
RWStructuredBuffer<float> Out : register(u0);

static const float kWeights[5] = { 0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216 };
static const int2 kOffsets[2][4] = {
    { int2(-1, -1), int2(0, -1), int2(1, -1), int2(-1, 0) },
    { int2(1, 0), int2(-1, 1), int2(0, 1), int2(1, 1) },
};
static const uint kCube[2][2][2] = { 1, 2, 3, 4, 5, 6, 7, 8 };

struct Tap { float weight; int2 offset; };

float SumRow(float row[4])
{
    float s = 0;
    for (uint i = 0; i < 4; i++)
        s += row[i];
    return s;
}

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float grid[3][4];
    for (uint y = 0; y < 3; y++)
        for (uint x = 0; x < 4; x++)
            grid[y][x] = kWeights[(x + y) % 5] * (id.x + 1);
    Tap taps[4];
    [unroll]
    for (int t = 0; t < 4; t++) {
        taps[t].weight = kWeights[t];
        taps[t].offset = kOffsets[t & 1][t];
    }
    float acc = SumRow(grid[id.x % 3]);
    for (int k = 0; k < 4; k++)
        acc += taps[k].weight * (taps[k].offset.x + taps[k].offset.y);
    acc += kCube[id.x & 1][(id.x >> 1) & 1][(id.x >> 2) & 1];
    Out[id.x] = acc;
}
