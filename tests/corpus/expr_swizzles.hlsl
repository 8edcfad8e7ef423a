// oneshader: -E main -T cs_6_0
// Swizzle reads (xyzw and rgba sets, repeats, on scalars, on expressions) and writes
// (partial, out of order, of a swizzle, as out arguments, compound).
RWStructuredBuffer<float4> Out : register(u0);

void Fill(out float2 v) { v = float2(7, 8); }
void Bump(inout float3 v) { v += 1; }

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 v = float4(1, 2, 3, 4);
    float4 r = v.wzyx + v.xxyy + v.rgba.bgra;
    float s = 5;
    float3 splat = s.xxx;
    float2 fromExpr = (v + 1).zyx.xy;
    float4 w = 0;
    w.xz = v.yw;
    w.wy = float2(9, 10);
    w.x = w.yzw.z;
    w.zyx.yz = float2(11, 12);
    Fill(w.yw);
    Bump(w.xyz);
    w.ba *= 2;
    w.r += splat.g;
    float4 col = 0;
    col.rgb = v.bgr;
    col.a = id.x;
    Out[id.x] = r + w + col + float4(fromExpr, splat.xy);
    Out[id.x].zx = float2(-1, -2);
}
