// oneshader: -E main -T ps_6_0
// Pixel system values: SV_Position, SV_IsFrontFace, SV_SampleIndex (per-sample
// shading), SV_Depth written as an out parameter, SV_Target as the return value.
Texture2D<float4> Tex : register(t0);
SamplerState Smp : register(s1);

float4 main(float4 pos : SV_Position, bool front : SV_IsFrontFace, uint sampleIndex : SV_SampleIndex,
            float2 uv : TEXCOORD0, out float depth : SV_Depth) : SV_Target
{
    float4 c = Tex.Sample(Smp, uv);
    if (!front)
        c.rgb = 1 - c.rgb;
    depth = saturate(pos.z + sampleIndex * 0.001);
    return c * (pos.w > 0 ? 1.0 : 0.5);
}
