// f32tof16 rounds to nearest even as D3D (subnormals kept, overflow to infinity,
// NaN stays NaN), f16tof32 is exact, fmod takes the sign of x, and the derived
// intrinsics (modf, sincos at 0, ldexp, degrees of 0) give their exact values.
StructuredBuffer<uint> X : register(t0);
StructuredBuffer<float> Y : register(t1);
RWStructuredBuffer<uint> Half : register(u2);
RWStructuredBuffer<float> Out : register(u3);

[numthreads(16, 1, 1)]
void main(uint i : SV_DispatchThreadID)
{
    float x = asfloat(X[i]);
    uint h = f32tof16(x);
    Half[i] = h;
    Half[16 + i] = asuint(f16tof32(h));
    Out[i * 4] = abs(x) < 100000.0 ? fmod(x, Y[i]) : 0.0;
    float whole;
    float part = modf(Y[i], whole);
    Out[i * 4 + 1] = whole + part * 2;
    float s, c;
    sincos(0.0, s, c);
    Out[i * 4 + 2] = ldexp(Y[i], (int)(i & 3)) + s + c;
    Out[i * 4 + 3] = degrees(0.0) + abs(-(int)i) + clamp((int)i - 8, -3, 3) + max(i, 5u);
}
