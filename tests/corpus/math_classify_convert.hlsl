// oneshader: -E main -T cs_6_0
// isnan, isinf, isfinite; bit casts asfloat/asuint/asint in every direction and
// width; f32tof16/f16tof32 on scalars and vectors; fp16 packing of two halves.
RWStructuredBuffer<uint4> Words : register(u0);
RWStructuredBuffer<float4> Floats : register(u1);
StructuredBuffer<float4> In : register(t2);

uint PackHalf2(float2 v) { return f32tof16(v.x) | (f32tof16(v.y) << 16); }
float2 UnpackHalf2(uint p) { return float2(f16tof32(p), f16tof32(p >> 16)); }

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 v = In[id.x];
    bool4 nan = isnan(v);
    bool4 inf = isinf(v);
    bool4 fin = isfinite(v);
    uint4 bits = asuint(v);
    int4 sbits = asint(v);
    float4 back = asfloat(bits) + asfloat(sbits);
    float fromInt = asfloat(0x3F800000);
    uint fromIntSigned = asuint(-1);
    int fromUint = asint(0x80000000u);
    uint4 halves = f32tof16(v);
    float4 restored = f16tof32(halves);
    uint packed = PackHalf2(v.xy);
    Words[id.x] = uint4(nan) | (uint4(inf) << 1) | (uint4(fin) << 2) | (halves << 8);
    Words[id.x + 16] = uint4(packed, fromIntSigned, asuint(fromInt), asuint(fromUint));
    Floats[id.x] = back + restored + float4(UnpackHalf2(packed), fromInt, 0);
}
