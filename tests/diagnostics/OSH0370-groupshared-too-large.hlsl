// 64 KiB of groupshared memory: twice what every device guarantees.
RWStructuredBuffer<float4> Out : register(u0);
groupshared float4 tile[4096];
groupshared float unused[8192];
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    tile[id.x] = Out[id.x];
    GroupMemoryBarrierWithGroupSync();
    Out[id.x] = tile[63 - id.x];
}
