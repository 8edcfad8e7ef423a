// A draw checked texel by texel (tests/e2e/draws.rs): a triangle built from SV_VertexID
// covering the target, drawn twice (SV_InstanceID), with a linear, a flat
// (nointerpolation, from the first vertex) and a buffer-fed varying, two render targets
// (float4 and uint) and the pixel shader's SV_Position and SV_IsFrontFace.
StructuredBuffer<float4> Colors : register(t0);

struct VSOut {
    float4 position : SV_Position;
    float2 uv : TEXCOORD0;
    nointerpolation uint vertex : VERTEX_ID;
    float4 color : COLOR0;
};

struct PSOut {
    float4 coordinates : SV_Target0;
    uint ids : SV_Target1;
    float4 color : SV_Target2;
};

[shader("vertex")]
VSOut VSMain(uint id : SV_VertexID, uint instance : SV_InstanceID)
{
    // (-1, -1), (-1, 3), (3, -1): clockwise in D3D's clip space (y up), so a front face.
    float2 corner = float2(id == 2 ? 3.0 : -1.0, id == 1 ? 3.0 : -1.0);
    VSOut o;
    o.position = float4(corner, 0.5, 1);
    o.uv = corner * 0.5 + 0.5;
    o.vertex = 100 + 10 * instance + id;
    o.color = Colors[id];
    return o;
}

[shader("pixel")]
PSOut PSMain(VSOut i, bool front : SV_IsFrontFace)
{
    PSOut o;
    o.coordinates = float4(i.position.xy, i.uv);
    o.ids = i.vertex * 10 + (front ? 1 : 0);
    o.color = i.color;
    return o;
}
