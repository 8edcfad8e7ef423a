// oneshader: -E main -T cs_6_0
// The common intrinsics on float, int and uint: abs sign min max clamp saturate lerp
// step smoothstep frac fmod (sign of x) floor ceil round trunc modf frexp ldexp mad
// fma-free forms, on scalars and vectors.
RWStructuredBuffer<float4> Floats : register(u0);
RWStructuredBuffer<int4> Ints : register(u1);

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 v = float4(id.x, -float(id.x), id.x * 0.37, -2.5) - 3.5;
    float4 r = abs(v) + sign(v) + min(v, 1) + max(v, -1) + clamp(v, -2, 2) + saturate(v);
    r += lerp(v, v.wzyx, 0.25) + step(0, v) + smoothstep(-1, 1, v);
    r += frac(v) + fmod(v, 2) + fmod(-v, 1.5) + floor(v) + ceil(v) + round(v) + trunc(v);
    float4 whole;
    r += modf(v, whole) + whole;
    float4 e;
    r += frexp(v, e) + e;
    r += ldexp(v, float4(1, 2, -1, 0));
    r += mad(v, 2, 1);
    Floats[id.x] = r;
    int4 i = int4(v);
    uint4 u = uint4(abs(i));
    Ints[id.x] = abs(i) + sign(i) + min(i, 2) + max(i, -2) + clamp(i, -1, 1) + int4(min(u, 3u) + max(u, 1u) + clamp(u, 2u, 5u)) + mad(i, 2, 1);
}
