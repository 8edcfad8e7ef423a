// `?:` with a scalar condition on aggregates (float and int matrices, a struct, an array)
// picks one whole value; WGSL's and MSL's select take scalars and vectors only.
struct Pair
{
    int first;
    float second;
};

StructuredBuffer<int> In : register(t0);
RWStructuredBuffer<int> Out : register(u1);

[numthreads(4, 1, 1)]
void main(uint tid : SV_GroupIndex)
{
    int2x2 a = int2x2(In[0], In[1], In[2], In[3]);
    int2x2 b = a * 10;
    float2x2 f = (float2x2)a;
    Pair p = { In[0], 0.5 };
    Pair q = { In[3], 2.5 };
    int list[3] = { In[1], In[2], In[3] };
    int other[3] = { 7, 8, 9 };
    bool odd = (tid & 1) != 0;

    int2x2 m = odd ? a : b;
    float2x2 g = tid > 1 ? f : f * 0.5;
    Pair r = odd ? p : q;
    int l[3] = tid < 2 ? list : other;
    Out[tid * 6 + 0] = m._m01;
    Out[tid * 6 + 1] = m[1][1];
    Out[tid * 6 + 2] = (int)(g._m10 * 2);
    Out[tid * 6 + 3] = r.first;
    Out[tid * 6 + 4] = (int)(r.second * 2);
    Out[tid * 6 + 5] = l[2];
}
