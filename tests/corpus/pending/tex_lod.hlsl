// oneshader: -E main -T ps_6_0
// Pending (engineer `res`): CalculateLevelOfDetail and CalculateLevelOfDetailUnclamped.
Texture2D<float4> Tex : register(t0);
SamplerState Smp : register(s1);

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    float lod = Tex.CalculateLevelOfDetail(Smp, uv);
    float raw = Tex.CalculateLevelOfDetailUnclamped(Smp, uv);
    return Tex.SampleLevel(Smp, uv, lod) + raw;
}
