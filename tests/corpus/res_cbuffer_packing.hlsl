// oneshader: -E main -T cs_6_0
// cbuffers with HLSL's packing: scalars filling a 16-byte row, a float3 followed by
// a float, arrays of vectors, column_major and row_major matrices,
// two cbuffers.
cbuffer FrameConstants : register(b0)
{
    float4x4 ViewProj;
    row_major float3x4 World;
    float3 CameraPos;
    float Time;
    float2 Jitter;
    uint FrameIndex;
    int Flags;
    float4 Weights[3];
    float4 Scalars;
    uint Enabled;
};

cbuffer Lights : register(b1)
{
    float3 LightDir;
    float LightIntensity;
    uint LightCount;
    float2x2 Rotation;
};

RWStructuredBuffer<float4> Out : register(u2);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 p = mul(ViewProj, float4(mul(World, float4(CameraPos, 1)), 1));
    float w = 0;
    for (uint i = 0; i < 4; i++)
        w += Scalars[i] * Weights[i % 3][i];
    float2 j = mul(Rotation, Jitter);
    if (Enabled != 0 && (Flags & 1) != 0)
        p.xyz += LightDir * LightIntensity * LightCount;
    Out[id.x] = p * w + float4(j, Time, FrameIndex);
}
