// oneshader: -E main -T ps_6_0
// Texture2DMS loads per sample with SV_SampleIndex, a resolve loop over the samples,
// GetDimensions with the sample count, Texture2DMS<float> depth.
Texture2DMS<float4> Color : register(t0);
Texture2DMS<float> Depth : register(t1);

float4 main(float4 pos : SV_Position, uint sampleIndex : SV_SampleIndex) : SV_Target
{
    uint w, h, samples;
    Color.GetDimensions(w, h, samples);
    int2 p = int2(pos.xy);
    float4 sum = 0;
    for (uint s = 0; s < samples; ++s)
        sum += Color.Load(p, s);
    float d = Depth.Load(p, sampleIndex);
    float4 own = Color.Load(p, sampleIndex, int2(0, 0));
    return lerp(sum / samples, own, d) + float4(w, h, 0, 0) * 0;
}
