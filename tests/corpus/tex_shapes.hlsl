// oneshader: -E main -T ps_6_0
// Texture1D, Texture2DArray, Texture3D, TextureCube, TextureCubeArray:
// sampling with each coordinate shape, Load, and integer textures.
Texture1D<float4> Ramp : register(t0);
Texture2DArray<float4> Atlas : register(t2);
Texture3D<float4> Volume : register(t3);
TextureCube<float4> Sky : register(t4);
TextureCubeArray<float4> Probes : register(t5);
Texture2D<uint> Ids : register(t6);
Texture3D<int4> Offsets : register(t7);
SamplerState Smp : register(s8);

float4 main(float4 pos : SV_Position, float3 n : NORMAL, float2 uv : TEXCOORD0) : SV_Target
{
    float4 c = Ramp.Sample(Smp, uv.x);
    c += Atlas.Sample(Smp, float3(uv, 3), int2(1, 1));
    c += Volume.Sample(Smp, float3(uv, 0.5));
    c += Volume.SampleLevel(Smp, float3(uv, 0.5), 1, int3(1, 0, -1));
    c += Sky.Sample(Smp, n);
    c += Sky.SampleGrad(Smp, n, ddx(n), ddy(n));
    c += Probes.Sample(Smp, float4(n, 2));
    c += Probes.SampleLevel(Smp, float4(n, 1), 3);
    c += Ramp.Load(int2(pos.x, 0));
    c += Atlas.Load(int4(pos.xy, 2, 0));
    c += Volume.Load(int4(pos.xy, 1, 0));
    c += Volume[uint3(pos.xy, 0)];
    uint id = Ids.Load(int3(pos.xy, 0));
    int4 o = Offsets.Load(int4(id & 7, 0, 0, 0));
    return c + float4(o) + id;
}
