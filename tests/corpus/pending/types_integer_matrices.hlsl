// oneshader: -E main -T cs_6_0
// Pending (gap): int and uint matrices (SPIR-V and MSL have float matrices only; DXC
// lowers them to arrays of vectors), and float4x1 rows as float1 (m41[3][0], ._m30;
// 1xN and Nx1 matrices are rejected with OSH0310 until they are supported).
RWStructuredBuffer<int4> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int2x2 im = int2x2(1, -1, 2, -2);
    uint3x3 um = (uint3x3)0;
    float4x1 m41 = float4x1(1, 2, 3, 4);
    Out[0] = int4(im[0], im[1]) + um[2][2] + int(m41[3][0] + m41._m30);
}
