// oneshader: -E main -T vs_6_0
// A vertex shader with SV_VertexID and SV_InstanceID, user semantics with indices
// (TEXCOORD0..3, COLOR, NORMAL, TANGENT), inputs as parameters and in a struct,
// outputs in a struct and as out parameters, integer attributes.
cbuffer PerDraw : register(b0) { float4x4 WorldViewProj; float4x4 World; };

struct VSIn
{
    float3 position : POSITION;
    float3 normal : NORMAL;
    float4 tangent : TANGENT;
    float2 uv0 : TEXCOORD0;
    float2 uv1 : TEXCOORD1;
    uint4 joints : BLENDINDICES;
    float4 weights : BLENDWEIGHT;
};

struct VSOut
{
    float4 position : SV_Position;
    float3 normal : NORMAL;
    float4 uvs : TEXCOORD0;
    nointerpolation uint instance : TEXCOORD1;
};

VSOut main(VSIn v, float4 color : COLOR0, uint vid : SV_VertexID, uint iid : SV_InstanceID, out float4 outColor : COLOR0)
{
    VSOut o;
    float4 world = mul(World, float4(v.position, 1));
    o.position = mul(WorldViewProj, float4(v.position + float3(0, iid * 2.0, 0), 1));
    o.normal = normalize(mul((float3x3)World, v.normal)) * v.tangent.w;
    o.uvs = float4(v.uv0, v.uv1) + dot(v.weights, float4(v.joints));
    o.instance = iid + vid;
    outColor = color * world.y;
    return o;
}
