StructuredBuffer<float> In : register(t0);
RWStructuredBuffer<uint> Out : register(u1);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = countbits(In[id.x]);
}
