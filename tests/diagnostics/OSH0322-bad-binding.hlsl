RWStructuredBuffer<uint> Counts : register(t0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Counts[id.x] = id.x;
}
