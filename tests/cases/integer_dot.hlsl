// dot on integer vectors (Metal's dot takes floats only: the MSL is a sum of products).
StructuredBuffer<int4> In : register(t0);
RWStructuredBuffer<int> Out : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    int4 a = In[0];
    int4 b = In[1];
    Out[0] = dot(a.xyz, b.xyz);
    Out[1] = int(dot(uint2(a.zw), uint2(b.xy)));
    Out[2] = dot(a, b);
    Out[3] = dot(a.xy - 1, b.zw + 1);
}
