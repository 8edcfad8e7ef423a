// oneshader: -E main -T cs_6_0
// Arithmetic operators per component on scalars, vectors and matrices: + - * / %,
// unary minus and plus, integer division and modulo of negatives, mixed scalar/vector.
RWStructuredBuffer<int4> Ints : register(u0);
RWStructuredBuffer<float4> Floats : register(u1);
RWStructuredBuffer<uint4> Words : register(u2);

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int4 a = int4(id.x, -int(id.x), 7, -7);
    int4 b = int4(3, 3, -2, 2);
    Ints[id.x] = a / b + a % b - (-a) * +b;
    float4 f = float4(a) * 0.5;
    float4 g = f / float4(b) + f % 3.0 - 1.0 / (f + 10);
    float2x2 m = float2x2(f.xy, g.zw) * 2 + float2x2(1, 1, 1, 1);
    m = m / 4 - m * m;
    Floats[id.x] = g + float4(m[0], m[1]);
    uint4 u = uint4(id.xxxx) * uint4(1, 2, 3, 4);
    Words[id.x] = u / 3u + u % 5u - 1u + (u * 0xFFFFFFFFu);
}
