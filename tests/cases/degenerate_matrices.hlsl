// 1xN and Nx1 matrices (float1x4, float4x1, int1x3, float1x1) as DXC reads them: m[0] of a
// 1xN matrix is its row, m[i] of an Nx1 one a component, _m swizzles name a row and a
// column, mul follows the shapes (outer and dot products), transpose swaps the shape.
StructuredBuffer<float4> In : register(t0);
RWStructuredBuffer<float> Out : register(u1);

struct Pair { float1x3 row; float3x1 column; };

float1x3 twice(float1x3 m) { return m * 2; }

[numthreads(1, 1, 1)]
void main()
{
    float4 a = In[0];
    float4 b = In[1];
    float1x4 r = float1x4(a.x, a.y, a.z, a.w);
    float4x1 c = float4x1(b);
    Out[0] = r[0].z;
    Out[1] = r[0][1];
    Out[2] = c[2];
    Out[3] = c[3].x;
    Out[4] = r._m03;
    Out[5] = c._m20;
    Out[6] = r._14;
    float2 sw = r._m01_m00;
    Out[7] = sw.x * 10 + sw.y;
    float4x4 outer = mul(c, r);
    Out[8] = outer._m21;
    Out[9] = mul(r, c);
    float4x2 m42 = float4x2(1, 2, 3, 4, 5, 6, 7, 8);
    float1x2 rm = mul(r, m42);
    Out[10] = rm._m01;
    float2x4 m24 = float2x4(1, 2, 3, 4, 5, 6, 7, 8);
    float2x1 mc = mul(m24, c);
    Out[11] = mc._m10;
    float4x1 t = transpose(r);
    Out[12] = t[1];
    float1x4 neg = -r;
    Out[13] = neg._m02;
    float1x4 sum = r + (float1x4)b;
    Out[14] = sum[0].w;
    float1x4 ab = abs(neg);
    Out[15] = ab._m00;
    r._m01 = 100;
    r[0].z = 200;
    Out[16] = r[0].y + r._m02;
    c[1] = 7;
    Out[17] = c._m10;
    Pair p;
    p.row = float1x3(1, 2, 3);
    p.column = transpose(p.row);
    Out[18] = twice(p.row)._m02 + p.column[1];
    int1x3 ir = int1x3(3, -4, 5);
    int3x1 ic = int3x1(1, 2, 3);
    Out[19] = (float)mul(ir, ic);
    int3x3 io = mul(ic, ir);
    Out[20] = (float)io._m12;
    float1x4 fromv = b;
    Out[21] = fromv._m03;
    bool1x4 gt = r > 2;
    Out[22] = (float)gt._m03;
    float1x1 one = 5;
    Out[23] = one + one._m00;
    Out[24] = mul(c, 2)._m30 + mul(3, r)._m00;
}
