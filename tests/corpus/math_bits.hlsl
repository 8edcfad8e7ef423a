// oneshader: -E main -T cs_6_0
// Bit intrinsics: countbits, firstbithigh (signed and unsigned), firstbitlow,
// reversebits, on scalars and vectors; a bitfield extract/insert built from shifts.
RWStructuredBuffer<uint4> Out : register(u0);

uint BitfieldExtract(uint v, uint offset, uint count) { return (v >> offset) & ((1u << count) - 1u); }

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = id.x * 0x01010101u + 0x80000000u;
    int s = int(id.x) - 16;
    uint4 v = uint4(x, ~x, x >> 7, id.x);
    uint4 r = countbits(v) + firstbitlow(v) + firstbithigh(v) + reversebits(v);
    uint3 sh = firstbithigh(int3(s, -s, s * 1000));
    Out[id.x] = r + uint4(sh, BitfieldExtract(x, 4, 8));
}
