// oneshader: -E main -T cs_6_0
// Remaining common intrinsics: any/all on numbers and bools, degrees/radians, dst-like
// forms, msad-free integer helpers, min/max on mixed literals, noise-free hashing.
RWStructuredBuffer<float4> Out : register(u0);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 v = float4(id.x, 0, 1, -1);
    float deg = degrees(3.14159265) + radians(180.0);
    bool anyNonZero = any(v);
    bool allNonZero = all(v.zw);
    bool anyInt = any(int2(0, id.x));
    float m = max(min(v.x, 3), 1);
    float4 e = exp(-v * v);
    Out[id.x] = float4(deg, anyNonZero + allNonZero * 2 + anyInt * 4, m, 0) + e;
}
