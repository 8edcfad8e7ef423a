// oneshader: -E VSMain -T vs_6_0
// oneshader: -E PSMain -T ps_6_0
// oneshader: -E PSMain -T ps_6_0 -D MAX_LIGHTS=8 -D USE_NORMAL_MAP
// A forward PBR pass: GGX distribution, Smith visibility, Schlick Fresnel, a light
// loop over a StructuredBuffer of structs, a normal map with a TBN matrix, IBL from
// a cube map with SampleLevel by roughness.
#include "include/common_math.hlsli"
#ifndef MAX_LIGHTS
#define MAX_LIGHTS 4
#endif

struct Light { float3 position; float range; float3 color; float intensity; };

cbuffer Camera : register(b0) { float4x4 ViewProj; float3 EyePos; uint LightCount; };
cbuffer Object : register(b1) { float4x4 World; float4 BaseColorFactor; float Roughness; float Metallic; };
StructuredBuffer<Light> Lights : register(t2);
Texture2D<float4> BaseColorMap : register(t3);
Texture2D<float4> NormalMap : register(t4);
TextureCube<float4> Prefiltered : register(t5);
SamplerState Aniso : register(s6);

struct VSIn { float3 pos : POSITION; float3 normal : NORMAL; float4 tangent : TANGENT; float2 uv : TEXCOORD0; };
struct PSIn { float4 pos : SV_Position; float3 world : WORLDPOS; float3 normal : NORMAL; float4 tangent : TANGENT; float2 uv : TEXCOORD0; };

PSIn VSMain(VSIn v)
{
    PSIn o;
    float4 w = mul(World, float4(v.pos, 1));
    o.world = w.xyz;
    o.pos = mul(ViewProj, w);
    o.normal = mul((float3x3)World, v.normal);
    o.tangent = float4(mul((float3x3)World, v.tangent.xyz), v.tangent.w);
    o.uv = v.uv;
    return o;
}

float D_GGX(float NoH, float a) { float a2 = a * a; float f = (NoH * a2 - NoH) * NoH + 1; return a2 / (PI * f * f); }
float V_SmithGGX(float NoV, float NoL, float a)
{
    float a2 = a * a;
    float gv = NoL * sqrt(NoV * NoV * (1 - a2) + a2);
    float gl = NoV * sqrt(NoL * NoL * (1 - a2) + a2);
    return 0.5 / max(gv + gl, 1e-5);
}
float3 F_Schlick(float3 f0, float VoH) { return f0 + (1 - f0) * pow(1 - VoH, 5); }

float4 PSMain(PSIn i) : SV_Target
{
    float4 base = BaseColorMap.Sample(Aniso, i.uv) * BaseColorFactor;
    float3 n = normalize(i.normal);
#ifdef USE_NORMAL_MAP
    float3 t = normalize(i.tangent.xyz);
    float3 b = cross(n, t) * i.tangent.w;
    float3x3 tbn = float3x3(t, b, n);
    float3 tn = NormalMap.Sample(Aniso, i.uv).xyz * 2 - 1;
    n = normalize(mul(tn, tbn));
#endif
    float3 v = normalize(EyePos - i.world);
    float NoV = saturate(dot(n, v)) + 1e-4;
    float a = SQR(Roughness);
    float3 f0 = lerp(0.04, base.rgb, Metallic);
    float3 color = 0;
    [loop]
    for (uint li = 0; li < min(LightCount, MAX_LIGHTS); li++) {
        Light light = Lights[li];
        float3 l = light.position - i.world;
        float dist = length(l);
        l /= dist;
        float atten = saturate(1 - SQR(dist / light.range)) / max(dist * dist, 1e-4);
        float3 h = normalize(v + l);
        float NoL = saturate(dot(n, l));
        float NoH = saturate(dot(n, h));
        float VoH = saturate(dot(v, h));
        float3 F = F_Schlick(f0, VoH);
        float3 spec = D_GGX(NoH, a) * V_SmithGGX(NoV, NoL, a) * F;
        float3 diff = (1 - F) * (1 - Metallic) * base.rgb * INV_PI;
        color += (diff + spec) * light.color * light.intensity * atten * NoL;
    }
    float3 r = reflect(-v, n);
    color += Prefiltered.SampleLevel(Aniso, r, Roughness * 6).rgb * F_Schlick(f0, NoV);
    return float4(color, base.a);
}
