// oneshader: -E main -T ps_6_0
// discard in nested control flow, early return from a pixel shader, clip on scalars
// and vectors, and code after discard that still runs for other pixels.
Texture2D<float4> Mask : register(t0);
SamplerState Smp : register(s1);
cbuffer Params : register(b2) { float Cutoff; uint Mode; };

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target0
{
    float4 m = Mask.Sample(Smp, uv);
    if (Mode == 0)
        return m;
    clip(m.a - Cutoff);
    clip(m.rgb - 0.01);
    for (int i = 0; i < 4; i++) {
        if (m[i] < 0.001)
            discard;
    }
    if (pos.x < 1 && pos.y < 1) {
        discard;
    }
    return m * 2;
}
