// Casts of a scalar to a struct or array, as DXC: every scalar of the aggregate gets the
// value, converted to its type ((S)0 zero-initializes; a float truncates to int/uint, a
// negative int wraps to uint, a non-zero value is true).
struct Inner
{
    float2 uv;
    bool flag;
};

struct P
{
    float3 pos;
    uint id;
    int w[2];
    Inner inner;
};

cbuffer C : register(b0) { float Value; int Neg; };
RWStructuredBuffer<uint> Out : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    P z = (P)0;
    P f = (P)Value;
    P n = (P)Neg;
    float arr[3] = (float[3])Neg;
    Out[0] = asuint(z.pos.x);
    Out[1] = z.id;
    Out[2] = uint(z.w[1]);
    Out[3] = z.inner.flag ? 1u : 0u;
    Out[4] = asuint(z.inner.uv.y);
    Out[5] = asuint(f.pos.z);
    Out[6] = f.id;
    Out[7] = uint(f.w[0]);
    Out[8] = f.inner.flag ? 1u : 0u;
    Out[9] = asuint(f.inner.uv.x);
    Out[10] = asuint(n.pos.y);
    Out[11] = n.id;
    Out[12] = uint(n.w[1]);
    Out[13] = n.inner.flag ? 1u : 0u;
    Out[14] = asuint(arr[2]);
}
