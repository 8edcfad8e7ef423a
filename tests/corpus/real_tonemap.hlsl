// oneshader: -E VSMain -T vs_6_0
// oneshader: -E PSMain -T ps_6_0
// oneshader: -E PSMain -T ps_6_0 -D TONEMAP_ACES
// A tonemapping post-process: fullscreen triangle, exposure from a cbuffer, ACES or
// Reinhard chosen by -D, sRGB encoding, vignette, dithering by a hash.
cbuffer PostParams : register(b0)
{
    float Exposure;
    float VignetteStrength;
    float2 InvResolution;
    uint FrameIndex;
};
Texture2D<float4> HdrColor : register(t1);
SamplerState LinearClamp : register(s2);

struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };

VSOut VSMain(uint id : SV_VertexID)
{
    VSOut o;
    o.uv = float2((id << 1) & 2, id & 2);
    o.pos = float4(o.uv * float2(2, -2) + float2(-1, 1), 0, 1);
    return o;
}

float3 ACESFilm(float3 x)
{
    const float a = 2.51, b = 0.03, c = 2.43, d = 0.59, e = 0.14;
    return saturate((x * (a * x + b)) / (x * (c * x + d) + e));
}

float3 Reinhard(float3 x) { return x / (1 + x); }

float3 LinearToSrgb(float3 c)
{
    float3 lo = c * 12.92;
    float3 hi = 1.055 * pow(abs(c), 1.0 / 2.4) - 0.055;
    return float3(c.r <= 0.0031308 ? lo.r : hi.r, c.g <= 0.0031308 ? lo.g : hi.g, c.b <= 0.0031308 ? lo.b : hi.b);
}

float Hash(uint2 p, uint frame)
{
    uint h = p.x * 1973u + p.y * 9277u + frame * 26699u;
    h = (h << 13) ^ h;
    h = h * (h * h * 15731u + 789221u) + 1376312589u;
    return float(h & 0x00FFFFFFu) / float(0x01000000);
}

float4 PSMain(VSOut i) : SV_Target
{
    float3 hdr = HdrColor.SampleLevel(LinearClamp, i.uv, 0).rgb * Exposure;
#ifdef TONEMAP_ACES
    float3 ldr = ACESFilm(hdr);
#else
    float3 ldr = Reinhard(hdr);
#endif
    float2 d = i.uv - 0.5;
    ldr *= 1 - dot(d, d) * VignetteStrength;
    float3 srgb = LinearToSrgb(ldr);
    srgb += (Hash(uint2(i.pos.xy), FrameIndex) - 0.5) / 255.0;
    return float4(srgb, 1);
}
