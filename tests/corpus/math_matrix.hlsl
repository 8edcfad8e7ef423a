// oneshader: -E main -T cs_6_0
// mul in all its forms: scalar*scalar, scalar*vector, scalar*matrix, vector*matrix
// (row vector), matrix*vector (column vector), matrix*matrix of non-square shapes;
// dot of vectors through mul; transpose and determinant of 2x2, 3x3, 4x4.
cbuffer Transforms : register(b0)
{
    float4x4 M44;
    float3x4 M34;
    row_major float4x3 M43;
    float2x2 M22;
};
RWStructuredBuffer<float4> Out : register(u1);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 v4 = float4(id, 1);
    float3 v3 = v4.xyz;
    float s = mul(2.0, 3.0);
    float4 a = mul(s, v4);
    float4x4 sm = mul(0.5, M44);
    float4 rowTimes = mul(v4, M44);
    float4 colTimes = mul(M44, v4);
    float3 r3 = mul(M34, v4);
    float4 r4 = mul(v3, M34);
    float3x3 m33 = mul(M34, M43);
    float4x4 m44 = mul(M43, M34);
    float d = mul(v4, v4);
    float2 r2 = mul(M22, v4.xy);
    float dets = determinant(M22) + determinant(m33) + determinant(m44) + determinant(M44);
    float4x3 t = transpose(M34);
    Out[id.x] = a + sm[1] + rowTimes + colTimes + float4(r3, d) + r4 + float4(m33[0], dets) + m44[2] + float4(r2, t[3].xy);
}
