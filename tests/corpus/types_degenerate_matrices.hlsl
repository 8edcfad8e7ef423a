// oneshader: -E main -T cs_6_0
// 1xN and Nx1 matrices: float4x1 rows are float1 (m41[3][0], ._m30); a float1x4's row 0 is
// a float4.
RWStructuredBuffer<float4> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float4x1 m41 = float4x1(1, 2, 3, 4);
    float1x4 m14 = float1x4(5, 6, 7, 8);
    Out[0] = m14[0] + m41[3][0] + m41._m30;
}
