// oneshader: -E main -T ps_6_0
// All eight render targets (SV_Target0..7) of different types: float4, float2,
// float, uint4, int2, written from a G-buffer pass.
struct PSIn
{
    float4 position : SV_Position;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
    nointerpolation uint material : MATERIAL;
};

struct GBuffer
{
    float4 albedo : SV_Target0;
    float2 normal : SV_Target1;
    float roughness : SV_Target2;
    uint4 ids : SV_Target3;
    int2 signedData : SV_Target4;
    float4 emissive : SV_Target5;
    float4 velocity : SV_Target6;
    float4 debug : SV_Target7;
};

float2 OctEncode(float3 n)
{
    n /= abs(n.x) + abs(n.y) + abs(n.z);
    float2 o = n.z >= 0 ? n.xy : (1 - abs(n.yx)) * (n.xy >= 0 ? 1.0 : -1.0);
    return o * 0.5 + 0.5;
}

GBuffer main(PSIn input)
{
    GBuffer g;
    g.albedo = float4(input.uv, 0, 1);
    g.normal = OctEncode(normalize(input.normal));
    g.roughness = 0.5;
    g.ids = uint4(input.material, uint2(input.position.xy), 0);
    g.signedData = int2(-1, input.material);
    g.emissive = 0;
    g.velocity = float4(ddx(input.uv), ddy(input.uv));
    g.debug = input.position;
    return g;
}
