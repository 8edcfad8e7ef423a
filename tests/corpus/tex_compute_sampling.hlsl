// oneshader: -E main -T cs_6_0
// Texture sampling in compute, where only explicit-LOD methods are allowed:
// SampleLevel, SampleGrad, SampleCmpLevelZero, Gather, Load; a bilinear downsample.
Texture2D<float4> Source : register(t0);
Texture2D<float> Depth : register(t1);
RWTexture2D<float4> Dest : register(u2);
SamplerState Bilinear : register(s3);
SamplerComparisonState Less : register(s4);
cbuffer Params : register(b5) { float2 InvSize; float Lod; };

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float2 uv = (id.xy + 0.5) * InvSize;
    float4 c = Source.SampleLevel(Bilinear, uv, Lod);
    c += Source.SampleGrad(Bilinear, uv, float2(InvSize.x, 0), float2(0, InvSize.y));
    float4 r = Source.GatherRed(Bilinear, uv);
    float vis = Depth.SampleCmpLevelZero(Less, uv, 0.5);
    c += Source.Load(int3(id.xy * 2, 0));
    Dest[id.xy] = c * 0.25 + dot(r, 0.25) * vis;
}
