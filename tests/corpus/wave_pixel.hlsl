// oneshader: -E main -T ps_6_0
// Wave and quad intrinsics in a pixel shader: a wave-uniform fast path chosen by
// WaveActiveAllTrue, WaveActiveMax of a material id, quad reads for a cheap blur.
Texture2D<float4> Tex : register(t0);
SamplerState Smp : register(s1);

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0, nointerpolation uint material : MATERIAL) : SV_Target
{
    float4 c = Tex.Sample(Smp, uv);
    uint maxMaterial = WaveActiveMax(material);
    if (WaveActiveAllTrue(material == maxMaterial))
        c *= 2;
    float4 h = QuadReadAcrossX(c);
    float4 vq = QuadReadAcrossY(c);
    float4 d = QuadReadAcrossDiagonal(c);
    float4 q0 = QuadReadLaneAt(c, 0);
    float avg = WaveActiveSum(c.a) / WaveActiveCountBits(true);
    return (c + h + vq + d) * 0.25 + q0 * 0.01 + avg + WaveGetLaneIndex() * 0;
}
