// Interlocked* on a RWBuffer element: not supported yet, with what to use instead.
RWBuffer<uint> Histogram : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    InterlockedAdd(Histogram[id.x & 15], 1);
}
