RWStructuredBuffer<uint64_t> Timestamps : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Timestamps[id.x] = (uint64_t)id.x << 32;
}
