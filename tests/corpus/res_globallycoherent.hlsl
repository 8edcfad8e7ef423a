// oneshader: -E main -T cs_6_0
// globallycoherent UAVs written then read across groups with DeviceMemoryBarrier, the
// single-pass "last group finishes" pattern.
globallycoherent RWStructuredBuffer<float> Partial : register(u0);
globallycoherent RWByteAddressBuffer Counter : register(u1);
RWStructuredBuffer<float> Result : register(u2);
groupshared bool gsLast;

[numthreads(64, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex)
{
    if (gi == 0)
        Partial[gid.x] = gid.x * 0.5;
    DeviceMemoryBarrier();
    if (gi == 0) {
        uint done;
        Counter.InterlockedAdd(0, 1, done);
        gsLast = done == 7;
    }
    AllMemoryBarrierWithGroupSync();
    if (gsLast && gi == 0) {
        float sum = 0;
        for (uint i = 0; i < 8; i++)
            sum += Partial[i];
        Result[0] = sum;
    }
}
