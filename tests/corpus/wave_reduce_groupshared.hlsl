// oneshader: -E main -T cs_6_0
// A two-level reduction: WaveActiveSum per wave, one value per wave through
// groupshared memory, then the first wave sums them; works for any wave size.
#define GROUP_SIZE 256
#define MAX_WAVES (GROUP_SIZE / 4)
StructuredBuffer<float> Values : register(t0);
RWStructuredBuffer<float> Sums : register(u1);
groupshared float gsWaveSums[MAX_WAVES];

[numthreads(GROUP_SIZE, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex)
{
    float v = Values[gid.x * GROUP_SIZE + gi];
    float waveSum = WaveActiveSum(v);
    uint laneCount = WaveGetLaneCount();
    uint waveIndex = gi / laneCount;
    if (WaveIsFirstLane())
        gsWaveSums[waveIndex] = waveSum;
    GroupMemoryBarrierWithGroupSync();
    uint waves = (GROUP_SIZE + laneCount - 1) / laneCount;
    if (gi < laneCount) {
        float partial = 0;
        for (uint i = gi; i < waves; i += laneCount)
            partial += gsWaveSums[i];
        float total = WaveActiveSum(partial);
        if (gi == 0)
            Sums[gid.x] = total;
    }
}
