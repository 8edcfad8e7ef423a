// The intrinsics the front end builds from several operations apply per component to
// matrices, as DXC does: rcp, fmod (with a scalar too), isfinite, ldexp, degrees, radians,
// log10, sincos, modf and frexp (whose out parameters are matrices), any and all of a
// matrix, step and smoothstep.
StructuredBuffer<float4> In : register(t0);
RWStructuredBuffer<float> Out : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    float2x2 m = float2x2(In[0]);
    float2x2 n = float2x2(In[1]);
    Out[0] = rcp(m)._m00;
    Out[1] = rcp(m)._m11;
    Out[2] = fmod(m, n)._m01;
    Out[3] = fmod(m, 3)._m11;
    bool2x2 finite = isfinite(m / n);
    Out[4] = (float)finite._m10 + 2 * (float)finite._m00 + 4 * (float)finite._m01
        + 8 * (float)isfinite(rcp(m))._m10;
    Out[5] = ldexp(m, n)._m11;
    Out[6] = ldexp(m, 2)._m01;
    Out[7] = degrees(m)._m10;
    Out[8] = radians(m)._m11;
    Out[9] = abs(log10(float2x2(100, 1000, 10, 1))._m01 - 3) < 0.001 ? 1 : 0;
    float2x2 s;
    float2x2 c;
    sincos(m, s, c);
    Out[10] = (abs(s._m10) < 0.001 && abs(c._m10 - 1) < 0.001 ? 1 : 0)
        + (abs(s._m00 - 0.9093) < 0.01 ? 2 : 0);
    float2x2 whole;
    float2x2 fraction = modf(m, whole);
    Out[11] = fraction._m01;
    Out[12] = whole._m01;
    float2x2 exponent;
    float2x2 mantissa = frexp(m, exponent);
    Out[13] = mantissa._m11;
    Out[14] = exponent._m11;
    Out[15] = mantissa._m01;
    Out[16] = exponent._m01;
    Out[17] = (float)any(m) + 2 * (float)all(m) + 4 * (float)any(m - m) + 8 * (float)all(n + 1);
    Out[18] = (float)all((int2x2)n) + 2 * (float)any((int2x2)n);
    Out[19] = step(m, n)._m01;
    Out[20] = smoothstep(0, 4, n)._m01;
}
