// Stream compaction of odd numbers, written differently from Compact.hlsl: other
// names, register space 1, a helper function, the counter in the second word, and
// a two-dimensional thread index.
StructuredBuffer<uint> Source : register(t3, space1);
RWStructuredBuffer<uint> Survivors : register(u0, space1);
RWByteAddressBuffer Tally : register(u5, space1);

bool isOdd(uint value)
{
    return (value & 1u) != 0;
}

[numthreads(16, 2, 1)]
void Filter(uint3 group : SV_GroupID, uint3 local : SV_GroupThreadID)
{
    uint index = group.x * 32 + local.y * 16 + local.x;
    uint value = Source[index];
    bool survives = isOdd(value);

    uint before = WavePrefixCountBits(survives);
    uint total = WaveActiveCountBits(survives);
    uint start;
    if (WaveIsFirstLane())
    {
        Tally.InterlockedAdd(4, total, start);
    }
    start = WaveReadLaneFirst(start);
    if (survives)
    {
        Survivors[start + before] = value;
    }
}
