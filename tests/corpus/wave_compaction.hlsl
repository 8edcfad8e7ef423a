// oneshader: -E main -T cs_6_0
// Stream compaction with one atomic per wave: WavePrefixCountBits for the slot,
// WaveActiveCountBits for the total, WaveReadLaneFirst to broadcast the base.
StructuredBuffer<uint> Keys : register(t0);
RWStructuredBuffer<uint> Kept : register(u1);
RWByteAddressBuffer Counter : register(u2);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint key = Keys[id.x];
    bool keep = (key & 3) == 0;
    uint slot = WavePrefixCountBits(keep);
    uint total = WaveActiveCountBits(keep);
    uint base = 0;
    if (WaveIsFirstLane() && total > 0)
        Counter.InterlockedAdd(0, total, base);
    base = WaveReadLaneFirst(base);
    if (keep)
        Kept[base + slot] = key;
}
