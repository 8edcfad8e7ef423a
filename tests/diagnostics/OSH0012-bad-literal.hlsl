RWStructuredBuffer<uint> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = id.x & 0xFFFFFFFFFFFFFFFFFF;
}
