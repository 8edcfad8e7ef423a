// Unary operators and element-wise intrinsics on matrices apply per component, as DXC
// does: -m, ~m, !m, abs, min, max, clamp and lerp with scalar and matrix arguments,
// saturate, floor, sqrt of an int matrix (in float), sign, isnan, mad, and a comparison.
StructuredBuffer<float4> In : register(t0);
RWStructuredBuffer<float> Out : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    float2x2 m = float2x2(In[0]);
    float2x2 n = float2x2(In[1]);
    int2x2 im = (int2x2)m;
    float2x2 neg = -m;
    int2x2 inverted = ~im;
    bool2x2 none = !(bool2x2)im;
    float2x2 low = min(m, n);
    float2x2 high = max(m, 0.5);
    float2x2 clamped = clamp(m, -1, n);
    float2x2 mixed = lerp(m, n, 0.25);
    float2x2 mixed2 = lerp(m, n, float2x2(0, 1, 0.5, 0.5));
    float2x2 sat = saturate(m);
    float2x2 floored = floor(n);
    float2x2 roots = sqrt(abs(im));
    int2x2 signs = sign(im);
    bool2x2 below = m < n;
    float2x2 fused = mad(m, 2, n);
    Out[0] = neg._m01;
    Out[1] = (float)inverted._m10;
    Out[2] = (float)none._m00 + 2 * (float)none._m11;
    Out[3] = low._m11;
    Out[4] = high._m00;
    Out[5] = clamped._m10;
    Out[6] = clamped._m01;
    Out[7] = mixed._m11;
    Out[8] = mixed2._m01 + mixed2._m10;
    Out[9] = sat._m10 + sat._m11;
    Out[10] = floored._m00;
    Out[11] = roots._m11;
    Out[12] = (float)(signs._m00 * 10 + signs._m01);
    Out[13] = (float)isnan(n)._m11 + 2 * (float)below._m01;
    Out[14] = fused._m10;
}
