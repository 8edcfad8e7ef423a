// oneshader: -E FullscreenVS -T vs_6_0
// oneshader: -E CopyPS -T ps_6_0
// The fullscreen-triangle vertex shader built from SV_VertexID alone and a copy pixel
// shader that reads the pixel with Load.
Texture2D<float4> Source : register(t0);

void FullscreenVS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD0)
{
    uv = float2((id << 1) & 2, id & 2);
    pos = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}

float4 CopyPS(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    return Source.Load(int3(pos.xy, 0)) + float4(uv, 0, 0) * 0;
}
