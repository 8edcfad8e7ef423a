// Atomics on a byte-address buffer: a histogram with InterlockedAdd, the largest
// value with InterlockedMax, and a bit mask with InterlockedOr.
StructuredBuffer<uint> Samples : register(t0);
RWByteAddressBuffer Bins : register(u1);
RWByteAddressBuffer Summary : register(u2);

static const uint BIN_COUNT = 8;

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint s = Samples[id.x];
    uint bin = s % BIN_COUNT;
    Bins.InterlockedAdd(bin * 4, 1);
    Summary.InterlockedMax(0, s);
    Summary.InterlockedOr(4, 1u << bin);
    uint previous;
    Summary.InterlockedAdd(8, s, previous);
}
