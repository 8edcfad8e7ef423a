// oneshader: -E ScanCS -T cs_6_0
// A block-wide exclusive prefix sum: WavePrefixSum inside each wave, the wave totals
// scanned through groupshared memory, then added back; SV_GroupIndex addressing.
#define THREADS 128
StructuredBuffer<uint> Input : register(t0);
RWStructuredBuffer<uint> Output : register(u1);
RWStructuredBuffer<uint> BlockSums : register(u2);
groupshared uint gsWaveTotals[THREADS];

[numthreads(THREADS, 1, 1)]
void ScanCS(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex)
{
    uint index = gid.x * THREADS + gi;
    uint value = Input[index];
    uint lanes = WaveGetLaneCount();
    uint wave = gi / lanes;
    uint prefix = WavePrefixSum(value);
    if (WaveGetLaneIndex() == lanes - 1)
        gsWaveTotals[wave] = prefix + value;
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0) {
        uint running = 0;
        for (uint w = 0; w < THREADS / lanes; w++) {
            uint t = gsWaveTotals[w];
            gsWaveTotals[w] = running;
            running += t;
        }
        BlockSums[gid.x] = running;
    }
    GroupMemoryBarrierWithGroupSync();
    Output[index] = prefix + gsWaveTotals[wave];
}
