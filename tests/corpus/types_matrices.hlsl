// oneshader: -E main -T cs_6_0
// Matrices of every shape as float3x4 and matrix<T, R, C>, row_major and column_major
// locals, constructors from scalars and vectors, rows by index, per-component
// arithmetic and truncating casts.
RWStructuredBuffer<float4> Out : register(u0);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float2x2 m22 = float2x2(1, 2, 3, 4);
    float3x4 m34 = float3x4(float4(1, 0, 0, id.x), float4(0, 1, 0, 0), float4(0, 0, 1, 0));
    matrix<float, 4, 3> m43 = transpose(m34);
    row_major float4x4 rm = float4x4(m34[0], m34[1], m34[2], float4(0, 0, 0, 1));
    column_major float4x4 cm = rm;
    float1x3 m13 = float1x3(1, 2, 3);
    float4x1 m41 = float4x1(1, 2, 3, 4);
    float3 r = m34[1].xyz + m43[2] + m13[0];
    float2x2 scaled = m22 * 2 + (float2x2)rm - m22 / 3;
    float3x3 upper = (float3x3)rm;
    float4 c = mul(cm, float4(r, 1)) + float4(scaled[1], upper[2].xy);
    c.x += m41[3];
    Out[id.x] = c;
}
