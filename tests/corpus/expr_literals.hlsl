// oneshader: -E main -T cs_6_0
// Literal forms: decimal, hex, octal, u/U/l suffixes, floats with f/h/F suffixes, exponents,
// leading and trailing dots, literal typing in mixed expressions.
RWStructuredBuffer<uint4> Words : register(u0);
RWStructuredBuffer<float4> Floats : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    uint a = 0xDEADBEEF;
    uint b = 0x10u + 017 + 42U;
    int c = -2147483647 - 1;
    uint d = 4294967295;
    int e = 1 + 0XFF;
    float f = 1.5f + .25 + 3. + 1e3 + 2.5e-2f + 1E+2 + 0.5h + 2.0F;
    float g = 1 / 2;
    float h = 1.0 / 2;
    float k = 5 / 2.0;
    Words[0] = uint4(a, b, asuint(c), d);
    Words[1] = uint4(e, 3 / 2, 7 % 4, -1);
    Floats[0] = float4(f, g, h, k);
}
