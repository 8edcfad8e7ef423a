// oneshader: -E main -T cs_6_0
// Bitwise operators and shifts on int and uint scalars and vectors; shift counts past
// the width (masked as DXC does), shifts by vectors, arithmetic right shift of negatives.
RWStructuredBuffer<uint4> Words : register(u0);
RWStructuredBuffer<int4> Ints : register(u1);

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = id.x * 0x9E3779B9u;
    uint4 v = uint4(x, ~x, x & 0xFF00FF00u, x | 0x0F0F0F0Fu);
    v ^= v.wzyx;
    uint s = id.x + 20;
    v = (v << s) | (v >> (32 - (s & 31)));
    v <<= uint4(1, 2, 33, 40);
    int i = -int(id.x) - 1;
    int4 w = int4(i >> 1, i >> 31, i << 30, i >> (id.x + 33));
    w &= int4(-1, 0x7FFFFFFF, ~0, 0xFF);
    w |= int4(1, 2, 4, 8) << int4(id.xxx, 1);
    Words[id.x] = v;
    Ints[id.x] = w ^ int4(~i, !i, i & 1, (i | 1) >> 2);
}
