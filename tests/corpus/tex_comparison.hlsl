// oneshader: -E main -T ps_6_0
// SamplerComparisonState: SampleCmp and SampleCmpLevelZero on 2D, 2D arrays and cubes,
// with offsets; a five-tap PCF.
Texture2D<float> ShadowMap : register(t0);
Texture2DArray<float> Cascades : register(t1);
TextureCube<float> PointShadow : register(t2);
SamplerComparisonState ShadowCmp : register(s3);

float4 main(float4 shadowPos : TEXCOORD0, float3 toLight : TEXCOORD1, nointerpolation uint cascade : TEXCOORD2) : SV_Target
{
    float lit = 0;
    lit += ShadowMap.SampleCmpLevelZero(ShadowCmp, shadowPos.xy, shadowPos.z, int2(-1, -1));
    lit += ShadowMap.SampleCmpLevelZero(ShadowCmp, shadowPos.xy, shadowPos.z, int2(1, -1));
    lit += ShadowMap.SampleCmpLevelZero(ShadowCmp, shadowPos.xy, shadowPos.z);
    lit += ShadowMap.SampleCmpLevelZero(ShadowCmp, shadowPos.xy, shadowPos.z, int2(-1, 1));
    lit += ShadowMap.SampleCmpLevelZero(ShadowCmp, shadowPos.xy, shadowPos.z, int2(1, 1));
    lit /= 5;
    float c = Cascades.SampleCmp(ShadowCmp, float3(shadowPos.xy, cascade), shadowPos.z);
    c += Cascades.SampleCmpLevelZero(ShadowCmp, float3(shadowPos.xy, cascade), shadowPos.z, int2(1, 0));
    float p = PointShadow.SampleCmpLevelZero(ShadowCmp, toLight, length(toLight) / 100);
    p += ShadowMap.SampleCmp(ShadowCmp, shadowPos.xy, shadowPos.z, int2(0, 1));
    return float4(lit, c, p, 1);
}
