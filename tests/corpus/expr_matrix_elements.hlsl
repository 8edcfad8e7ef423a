// oneshader: -E main -T cs_6_0
// Matrix element access: zero-based ._m12 and one-based ._12 single and multiple
// reads and writes, rows by [i], elements by [i][j], swizzles of rows.
RWStructuredBuffer<float4> Out : register(u0);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float3x4 m = float3x4(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    float a = m._m12;
    float b = m._23;
    float2 diag = m._m00_m11;
    float3 trio = m._11_22_33;
    m._m00 = 100;
    m._34 = id.x;
    m._m01_m02 = float2(-1, -2);
    m[1] = float4(0, 1, 0, 0);
    m[2][id.x % 4] = 5;
    m[0].zw = m[2].xy;
    float4x4 t = 0;
    t._m30_m31_m32 = float3(1, 2, 3);
    t._44 = 1;
    row_major float2x3 rm = float2x3(1, 2, 3, 4, 5, 6);
    rm._m10 += rm._m02;
    Out[id.x] = m[0] + m[1] + m[2] + t[3] + float4(a, b, diag) + float4(trio, rm._21);
}
