// Swizzles of swizzles, read and written (they compose into one swizzle of the vector),
// a float3 struct member that MSL packs, read into arithmetic, and swizzles of
// mul and mad results (parenthesized in MSL).
struct Light { float3 color; float intensity; };
StructuredBuffer<float4> In : register(t0);
RWStructuredBuffer<float4> Out : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    float4 v = In[0];
    float4 w = In[1];
    w.zyx.yz = float2(-1, -2);
    w.wzyx.x = 7;
    w.xyz.zy += float2(100, 200);
    Out[0] = w;
    Out[1] = float4((v + 1).zyx.xy, v.rgba.bgra.zw);
    Light l;
    l.color = v.xyz;
    l.intensity = v.w;
    Out[2] = float4(l.color * float3(2, 2, 2), l.intensity);
    float2x2 m = float2x2(v.xy, v.zw);
    Out[3] = float4(mul(m, float2(1, 1)).yx, mad(v.xy, 2, 1).yx);
}
