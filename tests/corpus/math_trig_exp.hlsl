// oneshader: -E main -T cs_6_0
// Trigonometric, hyperbolic, exponential and logarithmic intrinsics on scalars and
// vectors: sin cos tan asin acos atan atan2 sinh cosh tanh exp exp2 log log2 log10 pow
// sqrt rsqrt rcp sincos.
RWStructuredBuffer<float4> Out : register(u0);

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = id.x / 16.0;
    float4 v = float4(x, x + 0.1, x + 0.2, x + 0.3);
    float4 r = sin(v) + cos(v) + tan(v * 0.5);
    r += asin(v * 0.5) + acos(v * 0.5) + atan(v) + atan2(v, v.wzyx + 0.1);
    r += sinh(v) + cosh(v) + tanh(v);
    r += exp(v) + exp2(v) + log(v + 1) + log2(v + 1) + log10(v + 1);
    r += pow(v + 1, 2.2) + sqrt(v) + rsqrt(v + 1) + rcp(v + 1);
    float s, c;
    sincos(x, s, c);
    float3 s3, c3;
    sincos(v.xyz, s3, c3);
    Out[id.x] = r + float4(s3 * c3, s * c);
}
