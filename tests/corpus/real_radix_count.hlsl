// oneshader: -E CountCS -T cs_6_0 -I include
// oneshader: -E ReduceCS -T cs_6_0 -I include
// The count and reduce passes of a 4-bit radix sort in the style of FidelityFX
// ParallelSort: per-thread histograms in groupshared memory with InterlockedAdd,
// strided block loops, a wave-based reduction of the counts.
#include "sort_common.h"

cbuffer SortCB : register(b0)
{
    uint NumKeys;
    int NumBlocksPerThreadGroup;
    uint NumThreadGroups;
    uint NumThreadGroupsWithAdditionalBlocks;
    uint NumReduceThreadgroupPerBin;
    uint NumScanValues;
    uint Shift;
};
StructuredBuffer<uint> SrcKeys : register(t1);
RWStructuredBuffer<uint> SumTable : register(u2);
RWStructuredBuffer<uint> ReduceTable : register(u3);

groupshared uint gsHistogram[SORT_THREADGROUP_SIZE * SORT_BIN_COUNT];
groupshared uint gsReduce[32];

[numthreads(SORT_THREADGROUP_SIZE, 1, 1)]
void CountCS(uint localID : SV_GroupThreadID, uint groupID : SV_GroupID)
{
    for (int i = 0; i < SORT_BIN_COUNT; i++)
        gsHistogram[i * SORT_THREADGROUP_SIZE + localID] = 0;
    GroupMemoryBarrierWithGroupSync();

    int blockSize = SORT_ELEMENTS_PER_THREAD * SORT_THREADGROUP_SIZE;
    uint groupBase = groupID * NumBlocksPerThreadGroup * blockSize;
    int numBlocks = NumBlocksPerThreadGroup;
    if (groupID >= NumThreadGroups - NumThreadGroupsWithAdditionalBlocks) {
        groupBase += (groupID - NumThreadGroups + NumThreadGroupsWithAdditionalBlocks) * blockSize;
        numBlocks++;
    }
    uint dataIndex = groupBase + localID;
    for (int block = 0; block < numBlocks; block++) {
        uint index = dataIndex;
        [unroll]
        for (int e = 0; e < SORT_ELEMENTS_PER_THREAD; e++) {
            if (index < NumKeys) {
                uint bin = SORT_DIGIT(SrcKeys[index], Shift);
                InterlockedAdd(gsHistogram[bin * SORT_THREADGROUP_SIZE + localID], 1);
            }
            index += SORT_THREADGROUP_SIZE;
        }
        dataIndex += blockSize;
    }
    GroupMemoryBarrierWithGroupSync();
    if (localID < SORT_BIN_COUNT) {
        uint sum = 0;
        for (int t = 0; t < SORT_THREADGROUP_SIZE; t++)
            sum += gsHistogram[localID * SORT_THREADGROUP_SIZE + t];
        SumTable[localID * NumThreadGroups + groupID] = sum;
    }
}

uint ReduceGroup(uint value, uint localID)
{
    uint waveReduced = WaveActiveSum(value);
    uint waveID = localID / WaveGetLaneCount();
    if (WaveIsFirstLane())
        gsReduce[waveID] = waveReduced;
    GroupMemoryBarrierWithGroupSync();
    if (waveID == 0)
        waveReduced = WaveActiveSum(localID < SORT_THREADGROUP_SIZE / WaveGetLaneCount() ? gsReduce[localID] : 0);
    return waveReduced;
}

[numthreads(SORT_THREADGROUP_SIZE, 1, 1)]
void ReduceCS(uint localID : SV_GroupThreadID, uint groupID : SV_GroupID)
{
    uint binID = groupID / NumReduceThreadgroupPerBin;
    uint binOffset = binID * NumThreadGroups;
    uint baseIndex = (groupID % NumReduceThreadgroupPerBin) * SORT_ELEMENTS_PER_THREAD * SORT_THREADGROUP_SIZE;
    uint threadgroupSum = 0;
    for (uint i = 0; i < SORT_ELEMENTS_PER_THREAD; ++i) {
        uint dataIndex = baseIndex + i * SORT_THREADGROUP_SIZE + localID;
        threadgroupSum += dataIndex < NumThreadGroups ? SumTable[binOffset + dataIndex] : 0;
    }
    threadgroupSum = ReduceGroup(threadgroupSum, localID);
    if (localID == 0)
        ReduceTable[groupID] = threadgroupSum;
}
