// oneshader: -E main -T cs_6_0
// Vector geometry: dot (float and int), cross, length, distance, normalize, reflect,
// refract, faceforward, lit, dst-free forms on float2/3/4.
RWStructuredBuffer<float4> Out : register(u0);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float3 n = normalize(float3(0.2, 1, 0.1 * id.x));
    float3 i = normalize(float3(1, -1, 0));
    float3 r = reflect(i, n);
    float3 t = refract(i, n, 1.0 / 1.33);
    float3 f = faceforward(n, i, n);
    float3 c = cross(n, i);
    float2 p = float2(id.x, 1);
    float4 q = float4(p, p.yx);
    int d = dot(int3(id), int3(1, 2, 3));
    float4 l = lit(dot(n, -i), dot(r, n), 16);
    Out[id.x] = float4(r + t + f + c, d) + l + length(q) + distance(p, p.yx) + dot(q, q) + length(n.x);
}
