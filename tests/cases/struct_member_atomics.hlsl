// Interlocked* on members of a RWStructuredBuffer's struct (MSL: the struct's copy with
// atomic_uint/atomic_int members; WGSL: atomic<u32>/atomic<i32>), next to plain reads and
// writes of its float member, and a float3 packed right after a float in a cbuffer.
struct Bin
{
    uint count;
    float weight;
    int minValue;
    int maxValue;
    uint slots[2];
};

RWStructuredBuffer<Bin> Bins : register(u0);
cbuffer Sim : register(b1) { float Scale; float3 Offset; };
RWStructuredBuffer<uint> Out : register(u2);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint b = id.x & 3;
    int v = int(id.x) * int(Scale) - int(Offset.z);
    InterlockedAdd(Bins[b].count, 1);
    InterlockedMin(Bins[b].minValue, v);
    InterlockedMax(Bins[b].maxValue, v);
    InterlockedOr(Bins[b].slots[id.x & 1], 1u << (id.x >> 2));
    if (id.x < 4)
        Bins[id.x].weight = Offset.x + Offset.y * id.x;
    Out[id.x] = Bins[4].count + uint(Bins[4].weight);
}
