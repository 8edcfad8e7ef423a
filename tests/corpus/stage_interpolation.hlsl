// oneshader: -E VSMain -T vs_6_0
// oneshader: -E PSMain -T ps_6_0
// Interpolation modifiers between a vertex and a pixel shader: linear (default),
// nointerpolation, noperspective, centroid, sample, and combinations.
struct V2P
{
    float4 pos : SV_Position;
    float4 color : COLOR0;
    nointerpolation uint id : TEXCOORD0;
    noperspective float2 screen : TEXCOORD1;
    centroid float2 uv : TEXCOORD2;
    sample float3 normal : NORMAL;
    linear float fog : FOG;
    nointerpolation int2 cell : TEXCOORD3;
    centroid noperspective float depth : TEXCOORD4;
};

V2P VSMain(uint vid : SV_VertexID)
{
    V2P o;
    float2 p = float2((vid << 1) & 2, vid & 2);
    o.pos = float4(p * 2 - 1, 0, 1);
    o.color = float4(p, 0, 1);
    o.id = vid;
    o.screen = p;
    o.uv = p;
    o.normal = float3(0, 0, 1);
    o.fog = p.x;
    o.cell = int2(p);
    o.depth = 0.5;
    return o;
}

float4 PSMain(V2P i) : SV_Target
{
    return i.color * i.fog + float4(i.screen, i.uv) + float4(i.normal, i.id + i.cell.x + i.cell.y) * i.depth;
}
