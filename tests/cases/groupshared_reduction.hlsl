// A tree reduction in groupshared memory with barriers between the steps: each
// workgroup of 64 sums its 64 inputs exactly (integers), and a static global with an
// initializer scales the result.
StructuredBuffer<uint> Values : register(t0);
RWStructuredBuffer<uint> Sums : register(u1);
groupshared uint Partial[64];
static uint Scale = 3;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint index : SV_GroupIndex, uint3 group : SV_GroupID)
{
    Partial[index] = Values[id.x];
    GroupMemoryBarrierWithGroupSync();
    [unroll]
    for (uint stride = 32; stride > 0; stride >>= 1)
    {
        if (index < stride)
            Partial[index] += Partial[index + stride];
        GroupMemoryBarrierWithGroupSync();
    }
    if (index == 0)
        Sums[group.x] = Partial[0] * Scale;
}
