// Texel offsets from [unroll] loop variables, as DXC: each loop is unrolled, so every
// offset is a constant (counting up with ++ and += 2, and down with --).
Texture2D<float4> Texels : register(t0);
SamplerState Point : register(s1);
RWStructuredBuffer<float4> Sums : register(u2);

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 loads = 0;
    [unroll] for (int i = 0; i < 3; ++i)
        loads += Texels.Load(int3(0, id.x, 0), int2(i, 0));
    float4 samples = 0;
    [unroll(2)] for (uint j = 1; j <= 3; j += 2)
        samples += Texels.SampleLevel(Point, float2(0.125, (id.x + 0.5) / 2), 0, int2(j, 0));
    float4 down = 0;
    [unroll] for (int k = 2; k >= 0; k--)
    {
        float digit = Texels.Load(int3(0, id.x, 0), int2(k, 0)).x;
        down = down * 10 + digit;
    }
    Sums[id.x * 3 + 0] = loads;
    Sums[id.x * 3 + 1] = samples;
    Sums[id.x * 3 + 2] = down;
}
