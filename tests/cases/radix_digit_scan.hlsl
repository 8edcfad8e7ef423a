// One pass of a 4-bit radix sort's counting step, in the style of FidelityFX
// ParallelSort: a per-workgroup digit histogram built with groupshared atomics, and
// a workgroup-wide exclusive scan built from wave operations (WavePrefixSum inside a
// wave, WaveActiveSum of each wave into groupshared memory, then a scan of those
// sums). Helpers take the buffers and the constant buffer's struct as parameters.
//
// The wave-sum scan loops over the wave sums a wave at a time, so it is exact for any
// subgroup size that divides the workgroup (4, 8, 32, 64), including subgroups smaller
// than the number of waves.

#define DIGIT_BITS 4
#define DIGIT_COUNT (1 << DIGIT_BITS)
#define GROUP_SIZE 64
#define KEYS_PER_THREAD 2

struct SortParams
{
    uint NumKeys;
    uint Shift;
    uint Unused0;
    uint Unused1;
};

ConstantBuffer<SortParams> Params : register(b0);
StructuredBuffer<uint> Keys : register(t1);
RWStructuredBuffer<uint> Histogram : register(u2);
RWStructuredBuffer<uint> OldValueSums : register(u3);
RWStructuredBuffer<uint> BinStarts : register(u4);
RWStructuredBuffer<uint> Ranks : register(u5);
RWStructuredBuffer<uint> Totals : register(u6);

groupshared uint gsCounts[DIGIT_COUNT];
groupshared uint gsOldSums[DIGIT_COUNT];
groupshared uint gsWaveSums[GROUP_SIZE];

uint Digit(uint key, SortParams params)
{
    return (key >> params.Shift) & (DIGIT_COUNT - 1);
}

// Exclusive prefix sum of `value` over the workgroup; `total` gets the group's sum.
uint GroupExclusiveScan(uint value, uint localID, out uint total)
{
    uint laneCount = WaveGetLaneCount();
    uint waveID = localID / laneCount;
    uint waveCount = GROUP_SIZE / laneCount;

    uint inWave = WavePrefixSum(value);
    uint waveSum = WaveActiveSum(value);
    if (WaveIsFirstLane())
        gsWaveSums[waveID] = waveSum;
    GroupMemoryBarrierWithGroupSync();

    // The first wave turns the wave sums into exclusive prefixes, one wave-sized
    // chunk at a time, carrying the chunk totals forward.
    if (waveID == 0)
    {
        uint carry = 0;
        for (uint base = 0; base < waveCount; base += laneCount)
        {
            uint index = base + WaveGetLaneIndex();
            uint sum = index < waveCount ? gsWaveSums[index] : 0;
            uint prefix = WavePrefixSum(sum);
            if (index < waveCount)
                gsWaveSums[index] = prefix + carry;
            carry += WaveActiveSum(sum);
        }
    }
    GroupMemoryBarrierWithGroupSync();

    uint result = inWave + gsWaveSums[waveID];
    // The last thread's inclusive prefix is the total; share it through memory.
    GroupMemoryBarrierWithGroupSync();
    if (localID == GROUP_SIZE - 1)
        gsWaveSums[0] = result + value;
    GroupMemoryBarrierWithGroupSync();
    total = gsWaveSums[0];
    GroupMemoryBarrierWithGroupSync();
    return result;
}

void CountDigits(uint localID, uint groupID, SortParams params, StructuredBuffer<uint> keys,
                 RWStructuredBuffer<uint> histogram, RWStructuredBuffer<uint> oldSums)
{
    if (localID < DIGIT_COUNT)
    {
        gsCounts[localID] = 0;
        gsOldSums[localID] = 0;
    }
    GroupMemoryBarrierWithGroupSync();

    uint first = groupID * GROUP_SIZE * KEYS_PER_THREAD + localID;
    [unroll]
    for (uint k = 0; k < KEYS_PER_THREAD; ++k)
    {
        uint index = first + k * GROUP_SIZE;
        if (index < params.NumKeys)
        {
            uint before;
            InterlockedAdd(gsCounts[Digit(keys[index], params)], 1, before);
            // The values returned are 0 .. count-1 in some order: their sum is fixed.
            InterlockedAdd(gsOldSums[Digit(keys[index], params)], before);
        }
    }
    GroupMemoryBarrierWithGroupSync();

    if (localID < DIGIT_COUNT)
    {
        histogram[groupID * DIGIT_COUNT + localID] = gsCounts[localID];
        oldSums[groupID * DIGIT_COUNT + localID] = gsOldSums[localID];
    }
}

[numthreads(GROUP_SIZE, 1, 1)]
void main(uint localID : SV_GroupThreadID, uint groupID : SV_GroupID)
{
    CountDigits(localID, groupID, Params, Keys, Histogram, OldValueSums);

    // Where each digit's keys start in this group's output: a scan of the counts.
    uint binTotal;
    uint count = localID < DIGIT_COUNT ? gsCounts[localID] : 0;
    uint binStart = GroupExclusiveScan(count, localID, binTotal);
    if (localID < DIGIT_COUNT)
        BinStarts[groupID * DIGIT_COUNT + localID] = binStart;

    // A scan of a per-thread value: the sum of its keys' digits.
    uint digitSum = 0;
    uint first = groupID * GROUP_SIZE * KEYS_PER_THREAD + localID;
    for (uint k = 0; k < KEYS_PER_THREAD; ++k)
    {
        uint index = first + k * GROUP_SIZE;
        digitSum += index < Params.NumKeys ? Digit(Keys[index], Params) : 0;
    }
    uint total;
    Ranks[groupID * GROUP_SIZE + localID] = GroupExclusiveScan(digitSum, localID, total);
    if (localID == 0)
        Totals[groupID] = total + (binTotal << 16);
}
