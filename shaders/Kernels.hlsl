// A realistic compute kernel set, the 500-line benchmark input of docs/performance.md:
// a tiled reduction, a decoupled-style tile scan, a 4-bit radix sort pass (histogram,
// scan of the digit counts, stable scatter) and a bitonic sort of one tile in groupshared
// memory, with the helper functions, loops, barriers and wave operations such kernels use.
//
// Every entry point works on tiles of TILE_SIZE elements handled by one workgroup of
// GROUP_SIZE threads, each thread owning ITEMS_PER_THREAD consecutive elements.

#define GROUP_SIZE 256
#define ITEMS_PER_THREAD 4
#define TILE_SIZE (GROUP_SIZE * ITEMS_PER_THREAD)
#define RADIX_BITS 4
#define RADIX (1 << RADIX_BITS)
#define MAX_WAVES (GROUP_SIZE / 4)

cbuffer Params : register(b0)
{
    uint ElementCount;
    uint TileCount;
    uint DigitShift;
    uint Flags;
    float Scale;
    float Bias;
    float ClampLow;
    float ClampHigh;
};

StructuredBuffer<float> InputValues : register(t1);
StructuredBuffer<uint> InputKeys : register(t2);
StructuredBuffer<uint> TileDigitOffsets : register(t3);

RWStructuredBuffer<float> OutputValues : register(u4);
RWStructuredBuffer<uint> OutputKeys : register(u5);
RWStructuredBuffer<float> TileSums : register(u6);
RWStructuredBuffer<uint> TileDigitCounts : register(u7);
RWByteAddressBuffer Statistics : register(u8);

groupshared float SharedWaveSums[MAX_WAVES];
groupshared uint SharedWaveCounts[MAX_WAVES];
groupshared uint SharedDigitCounts[RADIX * MAX_WAVES];
groupshared uint SharedDigitBase[RADIX];
groupshared uint SharedKeys[TILE_SIZE];
groupshared float SharedValues[TILE_SIZE];

// ---------------------------------------------------------------------------------
// Small helpers

struct TileRange
{
    uint first;
    uint count;
};

TileRange TileOf(uint tile)
{
    TileRange range;
    range.first = tile * TILE_SIZE;
    uint remaining = ElementCount > range.first ? ElementCount - range.first : 0;
    range.count = min(remaining, (uint)TILE_SIZE);
    return range;
}

bool FlagSet(uint bit)
{
    return (Flags & (1u << bit)) != 0;
}

float Transform(float x)
{
    float y = x * Scale + Bias;
    if (FlagSet(0))
        y = clamp(y, ClampLow, ClampHigh);
    if (FlagSet(1))
        y = abs(y);
    return y;
}

float LoadValue(uint index)
{
    return index < ElementCount ? Transform(InputValues[index]) : 0.0;
}

uint LoadKey(uint index)
{
    // Keys past the end sort last.
    return index < ElementCount ? InputKeys[index] : 0xffffffffu;
}

uint DigitOf(uint key)
{
    return (key >> DigitShift) & (RADIX - 1);
}

uint WaveIndex(uint groupIndex)
{
    return groupIndex / WaveGetLaneCount();
}

uint WaveCountInGroup()
{
    return (GROUP_SIZE + WaveGetLaneCount() - 1) / WaveGetLaneCount();
}

uint FloatToOrderedUint(float f)
{
    uint bits = asuint(f);
    uint mask = (bits & 0x80000000u) != 0 ? 0xffffffffu : 0x80000000u;
    return bits ^ mask;
}

float OrderedUintToFloat(uint u)
{
    uint mask = (u & 0x80000000u) != 0 ? 0x80000000u : 0xffffffffu;
    return asfloat(u ^ mask);
}

// ---------------------------------------------------------------------------------
// Group-wide reduction and scan built from wave operations and groupshared memory

float GroupSum(float value, uint groupIndex)
{
    float waveSum = WaveActiveSum(value);
    uint wave = WaveIndex(groupIndex);
    if (WaveIsFirstLane())
        SharedWaveSums[wave] = waveSum;
    GroupMemoryBarrierWithGroupSync();

    float total = 0.0;
    uint waves = WaveCountInGroup();
    for (uint w = 0; w < waves; ++w)
        total += SharedWaveSums[w];
    GroupMemoryBarrierWithGroupSync();
    return total;
}

uint GroupCount(bool predicate, uint groupIndex)
{
    uint waveCount = WaveActiveCountBits(predicate);
    uint wave = WaveIndex(groupIndex);
    if (WaveIsFirstLane())
        SharedWaveCounts[wave] = waveCount;
    GroupMemoryBarrierWithGroupSync();

    uint total = 0;
    uint waves = WaveCountInGroup();
    for (uint w = 0; w < waves; ++w)
        total += SharedWaveCounts[w];
    GroupMemoryBarrierWithGroupSync();
    return total;
}

// The exclusive prefix sum of `value` over the group, and the group's total.
float GroupExclusiveScan(float value, uint groupIndex, out float total)
{
    float wavePrefix = WavePrefixSum(value);
    float waveTotal = WaveActiveSum(value);
    uint wave = WaveIndex(groupIndex);
    if (WaveIsFirstLane())
        SharedWaveSums[wave] = waveTotal;
    GroupMemoryBarrierWithGroupSync();

    float before = 0.0;
    total = 0.0;
    uint waves = WaveCountInGroup();
    for (uint w = 0; w < waves; ++w)
    {
        float s = SharedWaveSums[w];
        if (w < wave)
            before += s;
        total += s;
    }
    GroupMemoryBarrierWithGroupSync();
    return before + wavePrefix;
}

uint GroupExclusiveScanUint(uint value, uint groupIndex, out uint total)
{
    uint wavePrefix = WavePrefixSum(value);
    uint waveTotal = WaveActiveSum(value);
    uint wave = WaveIndex(groupIndex);
    if (WaveIsFirstLane())
        SharedWaveCounts[wave] = waveTotal;
    GroupMemoryBarrierWithGroupSync();

    uint before = 0;
    total = 0;
    uint waves = WaveCountInGroup();
    for (uint w = 0; w < waves; ++w)
    {
        uint s = SharedWaveCounts[w];
        before += w < wave ? s : 0;
        total += s;
    }
    GroupMemoryBarrierWithGroupSync();
    return before + wavePrefix;
}

// ---------------------------------------------------------------------------------
// Statistics written with atomics on a byte-address buffer:
// [0] the count of positive values, [4] the largest ordered key, [8] the smallest,
// [12] a bit set of the digits seen.

void RecordStatistics(float value, bool valid)
{
    bool positive = valid && value > 0.0;
    uint positives = WaveActiveCountBits(positive);
    uint ordered = valid ? FloatToOrderedUint(value) : 0u;
    uint largest = WaveActiveMax(ordered);
    uint smallest = WaveActiveMin(valid ? ordered : 0xffffffffu);
    if (WaveIsFirstLane())
    {
        if (positives != 0)
            Statistics.InterlockedAdd(0, positives);
        Statistics.InterlockedMax(4, largest);
        Statistics.InterlockedMin(8, smallest);
    }
}

void RecordDigits(uint digit, bool valid)
{
    uint seen = WaveActiveBitOr(valid ? (1u << digit) : 0u);
    if (WaveIsFirstLane() && seen != 0)
        Statistics.InterlockedOr(12, seen);
}

// ---------------------------------------------------------------------------------
// Kernel 1: per-tile sums of the transformed values, plus statistics.

[numthreads(GROUP_SIZE, 1, 1)]
void ReduceTiles(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    TileRange range = TileOf(groupId.x);
    float sum = 0.0;
    [unroll]
    for (uint i = 0; i < ITEMS_PER_THREAD; ++i)
    {
        uint local = groupIndex * ITEMS_PER_THREAD + i;
        bool valid = local < range.count;
        float v = valid ? LoadValue(range.first + local) : 0.0;
        RecordStatistics(v, valid);
        sum += v;
    }
    float total = GroupSum(sum, groupIndex);
    if (groupIndex == 0)
        TileSums[groupId.x] = total;
}

// ---------------------------------------------------------------------------------
// Kernel 2: an inclusive scan of every tile, offset by the scanned tile sums.

float ScanTileBase(uint tile, uint groupIndex)
{
    float mine = 0.0;
    for (uint t = groupIndex; t < tile; t += GROUP_SIZE)
        mine += TileSums[t];
    return GroupSum(mine, groupIndex);
}

[numthreads(GROUP_SIZE, 1, 1)]
void ScanTiles(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    TileRange range = TileOf(groupId.x);
    float base = ScanTileBase(groupId.x, groupIndex);

    float items[ITEMS_PER_THREAD];
    float threadSum = 0.0;
    [unroll]
    for (uint i = 0; i < ITEMS_PER_THREAD; ++i)
    {
        uint local = groupIndex * ITEMS_PER_THREAD + i;
        items[i] = local < range.count ? LoadValue(range.first + local) : 0.0;
        threadSum += items[i];
    }

    float tileTotal;
    float running = base + GroupExclusiveScan(threadSum, groupIndex, tileTotal);
    [unroll]
    for (uint j = 0; j < ITEMS_PER_THREAD; ++j)
    {
        running += items[j];
        uint local = groupIndex * ITEMS_PER_THREAD + j;
        if (local < range.count)
            OutputValues[range.first + local] = running;
    }
}

// ---------------------------------------------------------------------------------
// Kernel 3: radix sort, pass 1: the count of each digit in each tile.

void ClearDigitCounts(uint groupIndex)
{
    for (uint i = groupIndex; i < RADIX * MAX_WAVES; i += GROUP_SIZE)
        SharedDigitCounts[i] = 0;
    GroupMemoryBarrierWithGroupSync();
}

[numthreads(GROUP_SIZE, 1, 1)]
void RadixHistogram(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    ClearDigitCounts(groupIndex);
    TileRange range = TileOf(groupId.x);
    uint wave = WaveIndex(groupIndex);

    [unroll]
    for (uint i = 0; i < ITEMS_PER_THREAD; ++i)
    {
        uint local = i * GROUP_SIZE + groupIndex;
        bool valid = local < range.count;
        uint digit = DigitOf(LoadKey(range.first + local));
        RecordDigits(digit, valid);
        // Each wave counts its digits with ballots: one atomic per digit per wave.
        for (uint d = 0; d < RADIX; ++d)
        {
            uint n = WaveActiveCountBits(valid && digit == d);
            if (WaveIsFirstLane() && n != 0)
                InterlockedAdd(SharedDigitCounts[d * MAX_WAVES + wave], n);
        }
    }
    GroupMemoryBarrierWithGroupSync();

    if (groupIndex < RADIX)
    {
        uint total = 0;
        uint waves = WaveCountInGroup();
        for (uint w = 0; w < waves; ++w)
            total += SharedDigitCounts[groupIndex * MAX_WAVES + w];
        TileDigitCounts[groupIndex * TileCount + groupId.x] = total;
    }
}

// ---------------------------------------------------------------------------------
// Kernel 4: radix sort, pass 2: a stable scatter of keys and values to their digit's
// place. TileDigitOffsets holds, for digit d and tile t at [d * TileCount + t], where the
// tile's first key of digit d goes (the exclusive scan of TileDigitCounts).

uint RankInWave(uint digit, bool valid)
{
    // The number of lanes before this one with the same digit.
    uint rank = 0;
    for (uint d = 0; d < RADIX; ++d)
    {
        uint before = WavePrefixCountBits(valid && digit == d);
        if (digit == d)
            rank = before;
    }
    return rank;
}

uint CountInWave(uint digit, bool valid)
{
    uint count = 0;
    for (uint d = 0; d < RADIX; ++d)
    {
        uint n = WaveActiveCountBits(valid && digit == d);
        if (digit == d)
            count = n;
    }
    return count;
}

[numthreads(GROUP_SIZE, 1, 1)]
void RadixScatter(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    TileRange range = TileOf(groupId.x);
    uint wave = WaveIndex(groupIndex);
    uint waves = WaveCountInGroup();

    if (groupIndex < RADIX)
        SharedDigitBase[groupIndex] = TileDigitOffsets[groupIndex * TileCount + groupId.x];

    for (uint i = 0; i < ITEMS_PER_THREAD; ++i)
    {
        ClearDigitCounts(groupIndex);
        uint local = i * GROUP_SIZE + groupIndex;
        bool valid = local < range.count;
        uint key = LoadKey(range.first + local);
        float value = valid ? InputValues[range.first + local] : 0.0;
        uint digit = DigitOf(key);

        uint rank = RankInWave(digit, valid);
        uint count = CountInWave(digit, valid);
        bool leader = valid && rank == 0;
        if (leader)
            SharedDigitCounts[digit * MAX_WAVES + wave] = count;
        GroupMemoryBarrierWithGroupSync();

        // Lanes of earlier waves with the same digit come first.
        uint before = 0;
        for (uint w = 0; w < wave; ++w)
            before += SharedDigitCounts[digit * MAX_WAVES + w];

        if (valid)
        {
            uint destination = SharedDigitBase[digit] + before + rank;
            OutputKeys[destination] = key;
            OutputValues[destination] = value;
        }
        GroupMemoryBarrierWithGroupSync();

        // Advance each digit's base past this round's keys.
        if (groupIndex < RADIX)
        {
            uint added = 0;
            for (uint w = 0; w < waves; ++w)
                added += SharedDigitCounts[groupIndex * MAX_WAVES + w];
            SharedDigitBase[groupIndex] += added;
        }
        GroupMemoryBarrierWithGroupSync();
    }
}

// ---------------------------------------------------------------------------------
// Kernel 5: a bitonic sort of one tile of (key, value) pairs in groupshared memory.

void CompareExchange(uint a, uint b, bool ascending)
{
    uint keyA = SharedKeys[a];
    uint keyB = SharedKeys[b];
    if ((keyA > keyB) == ascending)
    {
        SharedKeys[a] = keyB;
        SharedKeys[b] = keyA;
        float valueA = SharedValues[a];
        SharedValues[a] = SharedValues[b];
        SharedValues[b] = valueA;
    }
}

void LoadTile(TileRange range, uint groupIndex)
{
    for (uint i = groupIndex; i < TILE_SIZE; i += GROUP_SIZE)
    {
        bool valid = i < range.count;
        SharedKeys[i] = LoadKey(range.first + i);
        SharedValues[i] = valid ? InputValues[range.first + i] : 0.0;
    }
    GroupMemoryBarrierWithGroupSync();
}

void StoreTile(TileRange range, uint groupIndex)
{
    for (uint i = groupIndex; i < range.count; i += GROUP_SIZE)
    {
        OutputKeys[range.first + i] = SharedKeys[i];
        OutputValues[range.first + i] = SharedValues[i];
    }
}

[numthreads(GROUP_SIZE, 1, 1)]
void BitonicSortTile(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    TileRange range = TileOf(groupId.x);
    LoadTile(range, groupIndex);

    for (uint size = 2; size <= TILE_SIZE; size <<= 1)
    {
        for (uint stride = size >> 1; stride > 0; stride >>= 1)
        {
            // Each thread handles TILE_SIZE / 2 / GROUP_SIZE pairs.
            for (uint p = groupIndex; p < TILE_SIZE / 2; p += GROUP_SIZE)
            {
                uint low = 2 * stride * (p / stride) + p % stride;
                uint high = low + stride;
                bool ascending = (low & size) == 0;
                CompareExchange(low, high, ascending);
            }
            GroupMemoryBarrierWithGroupSync();
        }
    }
    StoreTile(range, groupIndex);
}

// ---------------------------------------------------------------------------------
// Kernel 6: stream compaction of the values above a threshold with per-wave atomics,
// and a normalisation by the tile's maximum read across the wave.

float WaveMaxMagnitude(float v)
{
    return WaveActiveMax(abs(v));
}

uint CompactWave(bool keep)
{
    uint laneOffset = WavePrefixCountBits(keep);
    uint waveCount = WaveActiveCountBits(keep);
    uint waveBase = 0;
    if (WaveIsFirstLane() && waveCount != 0)
        Statistics.InterlockedAdd(16, waveCount, waveBase);
    waveBase = WaveReadLaneFirst(waveBase);
    return waveBase + laneOffset;
}

[numthreads(GROUP_SIZE, 1, 1)]
void CompactNormalized(uint3 id : SV_DispatchThreadID, uint groupIndex : SV_GroupIndex)
{
    bool valid = id.x < ElementCount;
    float v = valid ? LoadValue(id.x) : 0.0;
    float largest = WaveMaxMagnitude(v);
    float normalized = largest > 0.0 ? v / largest : 0.0;

    bool keep = valid && normalized > ClampLow;
    uint slot = CompactWave(keep);
    if (keep)
    {
        OutputValues[slot] = normalized;
        OutputKeys[slot] = id.x;
    }

    // Lane 0's value, to check the wave's broadcast agrees with its own load.
    float first = WaveReadLaneAt(v, 0);
    bool agrees = WaveActiveAllTrue(first == WaveReadLaneFirst(v));
    bool anyNegative = WaveActiveAnyTrue(v < 0.0);
    uint ballotLow = WaveActiveBallot(keep).x;
    if (groupIndex == 0)
    {
        uint summary = (agrees ? 1u : 0u) | (anyNegative ? 2u : 0u);
        Statistics.InterlockedOr(20, summary);
        Statistics.InterlockedAdd(24, countbits(ballotLow));
        Statistics.InterlockedMax(28, firstbithigh(ballotLow | 1u));
    }
}
