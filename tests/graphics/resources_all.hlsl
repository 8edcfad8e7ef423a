// Every texture shape and method in a pixel shader: arrays, cubes, 3D, 1D,
// multisampled loads, gathers with comparison, gradients, all GetDimensions forms.
Texture1D<float4> T1 : register(t0);
Texture2DArray<float4> T2A : register(t1);
Texture3D<float4> T3 : register(t2);
TextureCube<float4> TC : register(t3);
Texture2D<float> Shadow : register(t4);
Texture2DMS<float4> MS : register(t5);
Texture2D<uint4> Ids : register(t6);
RWTexture2D<float4> Storage : register(u7);
SamplerState S : register(s8);
SamplerComparisonState Cmp : register(s9);

float4 main(float4 pos : SV_Position, float3 dir : NORMAL, float2 uv : TEXCOORD0,
            uint sampleIndex : SV_SampleIndex) : SV_Target
{
    float4 c = T1.Sample(S, uv.x);
    c += T2A.SampleGrad(S, float3(uv, 1), ddx(uv), ddy(uv), int2(1, -1));
    c += T2A.SampleLevel(S, float3(uv, 2), 1.5);
    c += T3.SampleLevel(S, dir, 0);
    c += TC.SampleBias(S, dir, 1.0);
    c += TC.SampleLevel(S, dir, 0);
    c += Shadow.SampleCmp(Cmp, uv, 0.5);
    c += Shadow.SampleCmpLevelZero(Cmp, uv, 0.5, int2(1, 1));
    c += Shadow.GatherCmp(Cmp, uv, 0.25);
    c += MS.Load(int2(pos.xy), sampleIndex);
    c += float4(Ids.Load(int3(pos.xy, 0)));
    c += T2A.Load(int4(1, 2, 0, 0));
    c += T3.Load(int4(1, 2, 3, 0));
    c += T1.Load(int2(3, 0));
    uint w, h, d, layers, levels, samples;
    T1.GetDimensions(0, w, levels);
    T2A.GetDimensions(0, w, h, layers, levels);
    T3.GetDimensions(w, h, d);
    TC.GetDimensions(0, w, h, levels);
    MS.GetDimensions(w, h, samples);
    Storage.GetDimensions(w, h);
    Storage[uint2(pos.xy)] = c;
    return c + float4(w, h, d, layers + levels + samples);
}
