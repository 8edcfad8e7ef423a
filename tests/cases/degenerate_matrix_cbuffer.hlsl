// 1xN and Nx1 matrices in constant buffers at D3D's offsets: column_major gives each column
// a 16-byte row of its own (a float1x3 takes three rows, a float3x1 one), row_major each row
// (a float1x3 one row, a float2x1 two); every matrix starts a row and what follows packs
// after its last element. Also in a ConstantBuffer<T> struct.
cbuffer Params : register(b0)
{
    float a;
    float1x3 r;
    float3x1 c;
    row_major float1x3 rr;
    row_major float2x1 rc;
    float tail;
};

struct S { float x; float1x2 m; float y; };
ConstantBuffer<S> Block : register(b1);
RWStructuredBuffer<float> Out : register(u2);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = a;
    Out[1] = r._m00;
    Out[2] = r._m01;
    Out[3] = r[0].z;
    Out[4] = c[0];
    Out[5] = c._m10;
    Out[6] = c[2];
    Out[7] = rr._m00;
    Out[8] = rr[0].y;
    Out[9] = rr._m02;
    Out[10] = rc._m00;
    Out[11] = rc[1];
    Out[12] = tail;
    Out[13] = Block.x;
    Out[14] = Block.m._m01;
    Out[15] = Block.y;
}
