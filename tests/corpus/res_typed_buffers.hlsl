// oneshader: -E main -T cs_6_0
// Buffer<T> and RWBuffer<T> of scalars and vectors: operator[], Load, writes,
// read-modify-write, compound assignment, GetDimensions of both.
Buffer<float4> Positions : register(t0);
Buffer<uint> Indices : register(t1);
Buffer<int2> Pairs : register(t2);
RWBuffer<float> Lengths : register(u3);
RWBuffer<uint4> Packed : register(u4);
RWBuffer<int> Accum : register(u5);
RWBuffer<uint> Hist : register(u6);

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
    Lengths[id.x] = length(p.xyz) + pair.x;
    Packed[id.x] = Packed[id.x] + uint4(index, count, asuint(p.w), 1);
    Accum[id.x] += pair.y;
    uint histCount;
    Hist.GetDimensions(histCount);
    Hist[index % histCount] = id.x;
}
