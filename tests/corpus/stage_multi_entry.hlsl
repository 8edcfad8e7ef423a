// oneshader: -E VSMain -T vs_6_0
// oneshader: -E PSMain -T ps_6_0
// oneshader: -E CSClear -T cs_6_0
// oneshader: -E CSBlur -T cs_6_0
// Several entry points of different stages sharing helpers, resources and constants,
// each compiled alone; [shader("...")] attributes as in a library.
cbuffer Shared : register(b0) { float4x4 ViewProj; float4 Tint; uint2 Size; };
Texture2D<float4> Input : register(t1);
SamplerState Linear : register(s2);
RWTexture2D<float4> Output : register(u3);

float4 ApplyTint(float4 c) { return c * Tint; }

struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };

[shader("vertex")]
VSOut VSMain(float3 pos : POSITION, float2 uv : TEXCOORD0)
{
    VSOut o;
    o.pos = mul(ViewProj, float4(pos, 1));
    o.uv = uv;
    return o;
}

[shader("pixel")]
float4 PSMain(VSOut i) : SV_Target
{
    return ApplyTint(Input.Sample(Linear, i.uv));
}

[shader("compute")]
[numthreads(8, 8, 1)]
void CSClear(uint3 id : SV_DispatchThreadID)
{
    if (all(id.xy < Size))
        Output[id.xy] = ApplyTint(0);
}

[shader("compute")]
[numthreads(8, 8, 1)]
void CSBlur(uint3 id : SV_DispatchThreadID)
{
    float2 uv = (id.xy + 0.5) / float2(Size);
    float4 c = 0;
    [unroll]
    for (int i = -2; i <= 2; i++)
        c += Input.SampleLevel(Linear, uv + float2(i, 0) / Size.x, 0);
    Output[id.xy] = ApplyTint(c / 5);
}
