RWStructuredBuffer<uint4> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = WaveMatch(id.x % 4);
}
