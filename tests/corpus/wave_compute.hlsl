// oneshader: -E main -T cs_6_0
// Wave intrinsics in compute: queries, votes, ballots, reductions, prefix operations,
// broadcasts, on int, uint, float and vectors, uniform and inside a branch.
StructuredBuffer<float4> In : register(t0);
RWStructuredBuffer<float4> Floats : register(u1);
RWStructuredBuffer<uint4> Words : register(u2);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 v = In[id.x];
    uint lane = WaveGetLaneIndex();
    uint count = WaveGetLaneCount();
    bool first = WaveIsFirstLane();
    bool anyBig = WaveActiveAnyTrue(v.x > 0.5);
    bool allPos = WaveActiveAllTrue(v.y >= 0);
    uint4 ballot = WaveActiveBallot(v.z > 0);
    uint bits = WaveActiveCountBits(v.z > 0);
    uint before = WavePrefixCountBits(v.z > 0);
    bool same = WaveActiveAllEqual(uint(v.w));
    float4 sum = WaveActiveSum(v);
    float prod = WaveActiveProduct(v.x);
    int imin = WaveActiveMin(int(v.y * 100));
    uint umax = WaveActiveMax(id.x);
    uint andBits = WaveActiveBitAnd(id.x);
    uint orBits = WaveActiveBitOr(id.x);
    uint xorBits = WaveActiveBitXor(id.x);
    float prefix = WavePrefixSum(v.x);
    uint prefixProd = WavePrefixProduct(lane & 1 ? 2u : 1u);
    float4 fromLane = WaveReadLaneAt(v, 3);
    float firstVal = WaveReadLaneFirst(v.y);
    if (v.x > 0.25) {
        float partial = WaveActiveSum(v.x);
        uint active = WaveActiveCountBits(true);
        v.x = partial / active + WaveReadLaneFirst(v.z);
    }
    Floats[id.x] = sum + fromLane + float4(prod, prefix, firstVal, v.x);
    Words[id.x] = ballot + uint4(lane + count + first + anyBig + allPos + same, bits + before, imin + umax, andBits ^ orBits ^ xorBits ^ prefixProd);
}
