// Matrix arithmetic per component (matrix with scalar, matrix with matrix, compound
// assignment, %), truncating casts that keep the upper-left block, and a scalar
// converted to a matrix.
StructuredBuffer<float4> Rows : register(t0);
RWStructuredBuffer<float> Out : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    float4x4 m = float4x4(Rows[0], Rows[1], Rows[2], Rows[3]);
    float4x4 a = m * 2 - 1;
    a += m;
    float4x4 b = m * m;
    float3x3 t = (float3x3)m;
    float2x3 u = (float2x3)m;
    float4x4 z = 3;
    float3x3 h = t % 4;
    Out[0] = a._m12;
    Out[1] = a._m30;
    Out[2] = b._m12;
    Out[3] = t._m21;
    Out[4] = t._m02;
    Out[5] = u._m12;
    Out[6] = z._m33;
    Out[7] = h._m21;
    Out[8] = h._m12;
    Out[9] = mul(t, float3(1, 0, 0)).y;
}
