// abs of the most negative int is INT_MIN in DXC (two's complement wraps). SPIR-V's
// GLSL.std.450 SAbs leaves it undefined, so the SPIR-V writer must not rely on it.
StructuredBuffer<int> In : register(t0);
RWStructuredBuffer<int> Out : register(u1);

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    int x = In[i];
    int s = x >> 31;
    Out[i * 8 + 0] = abs(x);
    Out[i * 8 + 1] = abs(x) <= -1 ? 1 : 0;
    Out[i * 8 + 2] = abs(x) < 0 ? 1 : 0;
    Out[i * 8 + 3] = max(x, -x);
    Out[i * 8 + 4] = max(0, max(x, -x));
    Out[i * 8 + 5] = (x ^ s) - s;
    Out[i * 8 + 6] = ((x ^ s) - s) <= -1 ? 1 : 0;
    Out[i * 8 + 7] = abs(int2(x, -x)).y;
}
