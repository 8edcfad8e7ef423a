// oneshader: -E main -T ps_6_0
// Texture2D with every sampling method of a pixel shader: Sample (with offset),
// SampleBias, SampleLevel, SampleGrad, and Load / operator[].
Texture2D<float4> Albedo : register(t0);
Texture2D<float> Height : register(t1);
Texture2D<float2> Motion : register(t2);
SamplerState LinearWrap : register(s3);
SamplerState PointClamp : register(s4);

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    float4 c = Albedo.Sample(LinearWrap, uv);
    c += Albedo.Sample(LinearWrap, uv, int2(1, -1));
    c += Albedo.SampleBias(LinearWrap, uv, -0.5);
    c += Albedo.SampleBias(LinearWrap, uv, 0.5, int2(0, 1));
    c += Albedo.SampleLevel(PointClamp, uv, 2.0);
    c += Albedo.SampleLevel(PointClamp, uv, 0, int2(2, 2));
    c += Albedo.SampleGrad(LinearWrap, uv, ddx(uv), ddy(uv));
    c += Albedo.SampleGrad(LinearWrap, uv, float2(0.01, 0), float2(0, 0.01), int2(-1, 0));
    float h = Height.Sample(PointClamp, uv);
    float2 mv = Motion.SampleLevel(PointClamp, uv + h, 0);
    int2 texel = int2(pos.xy);
    c += Albedo.Load(int3(texel, 0));
    c += Albedo.Load(int3(texel, 1), int2(1, 1));
    c += Albedo[uint2(texel)];
    c.r += Height.Load(int3(texel / 2, 1));
    return c * 0.1 + float4(mv, h, 0);
}
