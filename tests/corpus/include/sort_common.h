// Constants and helpers of the radix sort, in the style of FFX_ParallelSort.h.
#ifndef SORT_COMMON_H
#define SORT_COMMON_H

#define SORT_BITS_PER_PASS 4
#define SORT_BIN_COUNT (1 << SORT_BITS_PER_PASS)
#define SORT_ELEMENTS_PER_THREAD 4
#define SORT_THREADGROUP_SIZE 128
#define SORT_MAX_THREADGROUPS 800

#define SORT_DIGIT(key, shift) (((key) >> (shift)) & (SORT_BIN_COUNT - 1))

struct SortConstants
{
    uint NumKeys;
    int NumBlocksPerThreadGroup;
    uint NumThreadGroups;
    uint NumThreadGroupsWithAdditionalBlocks;
    uint NumReduceThreadgroupPerBin;
    uint NumScanValues;
    uint Shift;
};

#endif
