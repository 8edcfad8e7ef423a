// oneshader: -E main -T cs_6_0
// Matrices of every shape as float3x4 and matrix<T, R, C>, row_major and column_major
// locals, constructors from scalars and vectors, rows by index, per-component
// arithmetic and truncating casts. (1xN and Nx1 matrices are OSH0310: see
// tests/diagnostics/OSH0310-degenerate-matrix.hlsl.)
RWStructuredBuffer<float4> Out : register(u0);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float2x2 m22 = float2x2(1, 2, 3, 4);
    float3x4 m34 = float3x4(float4(1, 0, 0, id.x), float4(0, 1, 0, 0), float4(0, 0, 1, 0));
    matrix<float, 4, 3> m43 = transpose(m34);
    row_major float4x4 rm = float4x4(m34[0], m34[1], m34[2], float4(0, 0, 0, 1));
    column_major float4x4 cm = rm;
    float3 r = m34[1].xyz + m43[2];
    float2x2 scaled = m22 * 2 + (float2x2)rm - m22 / 3;
    float3x3 upper = (float3x3)rm;
    float4 c = mul(cm, float4(r, 1)) + float4(scaled[1], upper[2].xy);
    Out[id.x] = c;
}
