// HLSL 2021's per-component and(), or() and select() on vectors, with numbers as
// conditions and scalar sides broadcast.
StructuredBuffer<int4> In : register(t0);
RWStructuredBuffer<int4> Out : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    int4 a = In[0];
    int4 b = In[1];
    bool4 pa = a > 0;
    bool4 pb = b > 0;
    Out[0] = int4(and(pa, pb)) + int4(or(pa, pb)) * 2;
    Out[1] = select(pa, a, b);
    Out[2] = select(b, a, -1);
    Out[3] = int4(and(a, true)) + int4(or(b, false)) * 10 + select(a.x > 0, 100, 200);
}
