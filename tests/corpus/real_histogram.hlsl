// oneshader: -E HistogramCS -T cs_6_0
// oneshader: -E AverageCS -T cs_6_0
// Luminance histogram for auto exposure: log-luminance bins in groupshared memory,
// InterlockedAdd into a RWByteAddressBuffer, then a weighted average pass with a
// groupshared reduction and exponential adaptation.
cbuffer Params : register(b0)
{
    uint2 InputSize;
    float MinLogLum;
    float InvLogLumRange;
    float LogLumRange;
    float TimeCoeff;
    uint PixelCount;
};
Texture2D<float4> HdrInput : register(t1);
RWByteAddressBuffer Histogram : register(u2);
RWTexture2D<float> AverageLum : register(u3);
groupshared uint gsBins[256];

uint BinOf(float3 c)
{
    float lum = dot(c, float3(0.2126, 0.7152, 0.0722));
    if (lum < 0.005)
        return 0;
    float t = saturate((log2(lum) - MinLogLum) * InvLogLumRange);
    return uint(t * 254.0 + 1.0);
}

[numthreads(16, 16, 1)]
void HistogramCS(uint gi : SV_GroupIndex, uint3 id : SV_DispatchThreadID)
{
    gsBins[gi] = 0;
    GroupMemoryBarrierWithGroupSync();
    if (all(id.xy < InputSize))
        InterlockedAdd(gsBins[BinOf(HdrInput.Load(int3(id.xy, 0)).rgb)], 1);
    GroupMemoryBarrierWithGroupSync();
    Histogram.InterlockedAdd(gi * 4, gsBins[gi]);
}

[numthreads(256, 1, 1)]
void AverageCS(uint gi : SV_GroupIndex)
{
    uint count = Histogram.Load(gi * 4);
    gsBins[gi] = count * gi;
    GroupMemoryBarrierWithGroupSync();
    Histogram.Store(gi * 4, 0);
    [unroll]
    for (uint cutoff = 128; cutoff > 0; cutoff >>= 1) {
        if (gi < cutoff)
            gsBins[gi] += gsBins[gi + cutoff];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gi == 0) {
        float weighted = (gsBins[0] / max(float(PixelCount - count), 1.0)) - 1.0;
        float avg = exp2((weighted / 254.0) * LogLumRange + MinLogLum);
        float last = AverageLum[uint2(0, 0)];
        AverageLum[uint2(0, 0)] = last + (avg - last) * TimeCoeff;
    }
}
