// oneshader: -E main -T cs_6_0
// oneshader: -E struct_casts -T cs_6_0
// C-style and constructor casts, implicit conversions between int/uint/float/bool,
// truncation of vectors to fewer components (DXC warns), scalar to vector splats,
// float to int rounding toward zero, bool to number.
RWStructuredBuffer<int4> Ints : register(u0);
RWStructuredBuffer<float4> Floats : register(u1);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float f = -2.75 + id.x;
    int i = (int)f;
    uint u = (uint)abs(f);
    int j = int(f * 2);
    bool b = (bool)i;
    float fromBool = b;
    int fromBoolInt = (int)b + true;
    float4 v = float4(f, -f, f * 3, 0.5);
    int4 iv = (int4)v;
    uint3 uv = (uint3)abs(v.xyz);
    float2 truncated = v;
    int2 ti = (int2)v;
    float4 splat = (float4)f;
    float4 fromInts = float4(iv) + uv.xyzz;
    int mixed = i + u;
    uint promoted = i * 2u;
    Ints[id.x] = iv + int4(ti, j, mixed) + fromBoolInt + int(promoted);
    Floats[id.x] = fromInts + splat + float4(truncated, fromBool, u) + (float)i;
}

struct CastTarget { float3 pos; uint id; int w[2]; };

[numthreads(1, 1, 1)]
void struct_casts()
{
    CastTarget zero = (CastTarget)0;
    CastTarget half = (CastTarget)0.5f;
    int counts[4] = (int[4])-1;
    Floats[0] = float4(zero.pos + half.pos, float(half.id + uint(counts[3] + zero.w[1])));
}
