// Each wave reserves space with one atomic and scatters the indices of the
// multiples of three; a loop, a ternary and a global total per wave.
#define DIVISOR 3

ByteAddressBuffer Numbers : register(t0);
RWStructuredBuffer<uint> Indices : register(u1);
RWByteAddressBuffer Counters : register(u2);

[shader("compute")]
[numthreads(64, 1, 1)]
void main(uint tid : SV_DispatchThreadID)
{
    uint n = Numbers.Load(tid * 4);
    uint remainder = n;
    while (remainder >= DIVISOR)
        remainder -= DIVISOR;
    bool hit = remainder == 0 ? true : false;

    uint slot = 0;
    uint waveHits = WaveActiveCountBits(hit);
    if (WaveIsFirstLane())
    {
        Counters.InterlockedAdd(0, waveHits, slot);
        Counters.InterlockedAdd(4, 1);
    }
    slot = WaveReadLaneFirst(slot) + WavePrefixCountBits(hit);
    if (hit)
        Indices[slot] = tid;
}
