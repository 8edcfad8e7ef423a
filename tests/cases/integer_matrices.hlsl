// Integer and bool matrices (arrays of vectors in SPIR-V, MSL and WGSL): built from
// vectors, read and written by row, by element and by _mRC, with constant and per-thread
// indices; per-component operators (arithmetic, bitwise, shifts, comparisons); mul in its
// three shapes and transpose; conversions to and from float matrices; a static const,
// a groupshared array of them, and a function parameter and result.
StructuredBuffer<int4> In : register(t0);
RWStructuredBuffer<int> Out : register(u1);
groupshared int3x2 Shared[2];
static const int2x2 K = int2x2(1, 2, 3, 4);

int2x3 Scale(int2x3 m, int s)
{
    return m * s;
}

[numthreads(2, 1, 1)]
void main(uint tid : SV_GroupIndex)
{
    int2x3 a = int2x3(In[0].xyz, In[1].xyz);
    int3x2 b = transpose(a);
    int2x2 p = mul(a, b);
    int2 v = mul(a, int3(1, 0, -1));
    int3 w = mul(int2(2, 1), a);
    uint3x3 u = (uint3x3)0;
    u[1] = uint3(7, 8, 9);
    u._m22 = 5;
    u[0][2] = 4;
    Shared[tid] = b * (int)(tid + 1);
    GroupMemoryBarrierWithGroupSync();
    int3x2 s = Shared[1 - tid];
    int2x3 sc = Scale(a, (int)tid + 2);
    int2x3 bits = (a & 3) | (a << 4);
    bool2x3 negative = a < 0;
    float2x3 f = (float2x3)a * 0.5;
    int2x3 back = (int2x3)f;
    bool2x2 bm = bool2x2(true, false, false, true);
    int2x2 d = p;
    d[tid][1 - tid] = -1;

    uint o = tid * 28;
    Out[o + 0] = p._m00;
    Out[o + 1] = p._m01;
    Out[o + 2] = p._m11;
    Out[o + 3] = v.x;
    Out[o + 4] = v.y;
    Out[o + 5] = w.x;
    Out[o + 6] = w.y;
    Out[o + 7] = w.z;
    Out[o + 8] = (int)u[1].y;
    Out[o + 9] = (int)u._m22;
    Out[o + 10] = (int)u[0].z;
    Out[o + 11] = (int)u._m00;
    Out[o + 12] = s._m00;
    Out[o + 13] = s._m21;
    Out[o + 14] = s[1].y;
    Out[o + 15] = sc._m12;
    Out[o + 16] = sc[1][0];
    Out[o + 17] = bits._m11;
    Out[o + 18] = bits._m02;
    Out[o + 19] = (int)negative._m11;
    Out[o + 20] = (int)negative._m10;
    Out[o + 21] = back._m11;
    Out[o + 22] = back._m00;
    Out[o + 23] = (int)bm._m01 + 2 * (int)bm[1][1];
    Out[o + 24] = a[tid].y;
    Out[o + 25] = d._m01 + d._m10 * 10;
    Out[o + 26] = (int)(mul(p, float2(0.5, 0.25)).y * 4);
    Out[o + 27] = K._m10 * 10 + K[0][1];
}
