// Casts between aggregates by their components, as DXC does them: a vector into a struct
// and back, into an array, a struct into a smaller struct (truncating), a struct holding a
// matrix (filled and read row by row) and one of integers and a bool (each scalar converted).
StructuredBuffer<float4> In : register(t0);
RWStructuredBuffer<float> Out : register(u1);

struct S { float a; float2 b; float c; };
struct Smaller { float2 x; float y; };
struct WithMatrix { float2x2 m; };
struct Integers { int a; uint b[2]; bool c; };

[numthreads(1, 1, 1)]
void main()
{
    float4 v = In[0];
    S s = (S)v;
    Out[0] = s.a;
    Out[1] = s.b.y;
    Out[2] = s.c;
    float4 back = (float4)s;
    Out[3] = back.w + back.x * 10;
    float arr[4] = (float[4])v;
    Out[4] = arr[2];
    Smaller smaller = (Smaller)s;
    Out[5] = smaller.y;
    float2 first = (float2)s;
    Out[6] = first.y;
    WithMatrix wm = (WithMatrix)v;
    Out[7] = wm.m._m01 * 10 + wm.m._m10;
    float4 fromMatrix = (float4)wm;
    Out[12] = fromMatrix.y * 10 + fromMatrix.z;
    Integers i = (Integers)In[1];
    Out[8] = (float)i.a;
    Out[9] = (float)i.b[1];
    Out[10] = i.c ? 1 : 0;
    S fromArray = (S)arr;
    Out[11] = fromArray.b.x;
}
