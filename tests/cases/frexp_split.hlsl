// frexp splits a float into a mantissa in [0.5, 1) with the sign of x and a power of two,
// both 0 for a zero, on scalars and vectors.
StructuredBuffer<float> In : register(t0);
RWStructuredBuffer<float> Out : register(u1);

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float e;
    float m = frexp(In[id.x], e);
    Out[id.x * 2] = m;
    Out[id.x * 2 + 1] = e;
    if (id.x == 0) {
        float2 e2;
        float2 m2 = frexp(float2(In[0], In[4]), e2);
        Out[10] = m2.x;
        Out[11] = m2.y;
        Out[12] = e2.x;
        Out[13] = e2.y;
    }
}
