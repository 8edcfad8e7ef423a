// oneshader: -E main -T ps_6_0
// Gather, GatherRed/Green/Blue/Alpha with and without offsets, on Texture2D and
// Texture2DArray and TextureCube, and GatherCmp on a depth texture.
Texture2D<float4> Color : register(t0);
Texture2DArray<float4> Layers : register(t1);
TextureCube<float4> Env : register(t2);
Texture2D<float> Depth : register(t3);
Texture2D<float> Shadow : register(t6);
SamplerState Smp : register(s4);
SamplerComparisonState Cmp : register(s5);

float4 main(float2 uv : TEXCOORD0, float3 dir : NORMAL) : SV_Target
{
    float4 g = Color.Gather(Smp, uv);
    g += Color.Gather(Smp, uv, int2(1, 0));
    g += Color.GatherRed(Smp, uv);
    g += Color.GatherGreen(Smp, uv, int2(0, 1));
    g += Color.GatherBlue(Smp, uv);
    g += Color.GatherAlpha(Smp, uv);
    g += Layers.Gather(Smp, float3(uv, 2));
    g += Layers.GatherGreen(Smp, float3(uv, 1));
    g += Env.Gather(Smp, dir);
    g += Depth.Gather(Smp, uv);
    g += Shadow.GatherCmp(Cmp, uv, 0.5);
    g += Shadow.GatherCmpRed(Cmp, uv, 0.5, int2(-1, -1));
    return g / 12;
}
