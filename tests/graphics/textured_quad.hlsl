// A vertex and a pixel shader in one file: struct inputs and outputs with user
// semantics, system values, interpolation modifiers, an out parameter (SV_Depth),
// two render targets, implicit-derivative sampling, derivatives, discard and clip.
Texture2D<float4> Albedo : register(t0);
SamplerState Smp : register(s1);

struct VSIn { float3 pos : POSITION; float2 uv : TEXCOORD0; uint id : SV_VertexID; };
struct VSOut {
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
    nointerpolation uint tag : TEXCOORD1;
    noperspective float fade : TEXCOORD2;
};

[shader("vertex")]
VSOut VSMain(VSIn input, uint inst : SV_InstanceID)
{
    VSOut o;
    o.pos = float4(input.pos, 1.0);
    o.uv = input.uv;
    o.tag = input.id + inst;
    o.fade = 0.5;
    return o;
}

struct PSOut { float4 color : SV_Target0; float4 extra : SV_Target1; };

[shader("pixel")]
PSOut PSMain(VSOut input, bool front : SV_IsFrontFace, out float depth : SV_Depth)
{
    PSOut o;
    float4 c = Albedo.Sample(Smp, input.uv) * input.fade;
    c += Albedo.SampleBias(Smp, input.uv, 0.5);
    c += ddx(input.uv).xyxy + ddy_fine(input.uv).xyxy + fwidth(c);
    if (c.a < 0.1) discard;
    clip(c.r - 0.01);
    o.color = front ? c : c * 0.5;
    o.extra = float4(input.tag, 0, 0, 1);
    depth = input.pos.z;
    return o;
}
