// oneshader: -E main -T cs_6_0
// Every memory barrier: GroupMemoryBarrier, GroupMemoryBarrierWithGroupSync,
// DeviceMemoryBarrier(WithGroupSync), AllMemoryBarrier(WithGroupSync), around
// groupshared and UAV traffic.
groupshared uint gsData[64];
RWStructuredBuffer<uint> Buf : register(u0);

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex, uint3 id : SV_DispatchThreadID)
{
    gsData[gi] = id.x;
    GroupMemoryBarrier();
    GroupMemoryBarrierWithGroupSync();
    uint v = gsData[63 - gi];
    Buf[id.x] = v;
    DeviceMemoryBarrier();
    DeviceMemoryBarrierWithGroupSync();
    v += Buf[id.x ^ 1];
    AllMemoryBarrier();
    gsData[gi] = v;
    AllMemoryBarrierWithGroupSync();
    Buf[id.x] = gsData[(gi + 1) & 63];
}
