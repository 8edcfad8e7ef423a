// oneshader: -E main -T ps_6_0
// Derivatives in a pixel shader: ddx, ddy, ddx_coarse, ddy_coarse, ddx_fine, ddy_fine,
// fwidth on scalars and vectors; clip driven by them; an edge filter.
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0, float3 world : TEXCOORD1) : SV_Target
{
    float2 dx = ddx(uv), dy = ddy(uv);
    float3 n = normalize(cross(ddy_fine(world), ddx_fine(world)));
    float cx = ddx_coarse(uv.x), cy = ddy_coarse(uv.y);
    float4 fw = fwidth(float4(uv, world.xy));
    float grid = smoothstep(0, fwidth(uv.x * 10), frac(uv.x * 10));
    clip(length(dx) + length(dy) - 1e-6);
    return float4(n * 0.5 + 0.5, grid) + fw + cx + cy;
}
