// Typed buffers: Buffer<T> read with operator[] and Load, RWBuffer<T> written,
// read-modified-written and compound-assigned, GetDimensions bounding the dispatch
// (threads past the end leave the RW buffers as they were).
Buffer<float4> Positions : register(t0);
Buffer<uint> Indices : register(t1);
Buffer<int2> Pairs : register(t2);
RWBuffer<float> Sums : register(u3);
RWBuffer<uint4> Packed : register(u4);
RWBuffer<int> Accum : register(u5);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint count;
    Indices.GetDimensions(count);
    if (id.x >= count)
        return;
    uint index = Indices[id.x];
    float4 p = Positions.Load(index);
    int2 pair = Pairs[id.x];
    uint pairCount;
    Pairs.GetDimensions(pairCount);
    Sums[id.x] = p.x + p.y * 2 + p.z * 0.5 + pair.x;
    Packed[id.x] = Packed[id.x] + uint4(index, count, asuint(p.w), pairCount);
    Accum[id.x] += pair.y;
}
