// oneshader: -E main -T cs_6_0
// Every RWByteAddressBuffer Interlocked* method, with and without the original value.
RWByteAddressBuffer Counters : register(u0);
RWStructuredBuffer<uint> Originals : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint v = id.x + 1;
    uint o0, o1, o2, o3, o4, o5, o6, o7, o8;
    Counters.InterlockedAdd(0, v);
    Counters.InterlockedAdd(4, v, o0);
    Counters.InterlockedMin(8, v, o1);
    Counters.InterlockedMax(12, v, o2);
    Counters.InterlockedAnd(16, ~(1u << (id.x & 31)), o3);
    Counters.InterlockedOr(20, 1u << (id.x & 31), o4);
    Counters.InterlockedXor(24, v, o5);
    Counters.InterlockedExchange(28, v, o6);
    Counters.InterlockedCompareExchange(32, 0, v, o7);
    Counters.InterlockedCompareStore(36, 0, v);
    Counters.InterlockedMin(40, int(v) - 32);
    Counters.InterlockedMax(44, int(v) - 32, o8);
    Originals[id.x] = o0 + o1 + o2 + o3 + o4 + o5 + o6 + o7 + o8;
}
