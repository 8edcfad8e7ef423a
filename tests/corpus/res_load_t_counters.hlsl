// oneshader: -E main -T cs_6_0
// ByteAddressBuffer Load<T> of structs and vectors, IncrementCounter/DecrementCounter,
// Append/ConsumeStructuredBuffer.
struct Vertex { float3 position; float2 uv; uint color; };
ByteAddressBuffer Raw : register(t0);
RWStructuredBuffer<uint> Counted : register(u1);
AppendStructuredBuffer<Vertex> Visible : register(u2);
ConsumeStructuredBuffer<uint> Work : register(u3);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Vertex v = Raw.Load<Vertex>(id.x * 24);
    float4 extra = Raw.Load<float4>(4096 + id.x * 16);
    uint slot = Counted.IncrementCounter();
    Counted[slot] = id.x;
    if (extra.w > 0.5)
        Visible.Append(v);
    uint item = Work.Consume();
    uint back = Counted.DecrementCounter();
    Counted[back] = item;
}
