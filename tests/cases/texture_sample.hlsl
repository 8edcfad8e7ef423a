// Filtered reads: SampleLevel with point and linear samplers at texel centres (exact)
// and half-way between two texels (exact for even sums), GatherRed/Green/Alpha,
// GetDimensions. Values come back as bytes: round(v * 255).
Texture2D<float4> Color : register(t0);
SamplerState Point : register(s1);
SamplerState Linear : register(s2);
RWStructuredBuffer<uint4> Out : register(u3);

uint4 bytes(float4 v) { return uint4(round(v * 255.0)); }

[numthreads(4, 4, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint i = id.y * 4 + id.x;
    uint width, height;
    Color.GetDimensions(width, height);
    float2 size = float2(width, height);
    float2 centre = (float2(id.xy) + 0.5) / size;
    Out[i * 5 + 0] = bytes(Color.SampleLevel(Point, centre, 0));
    Out[i * 5 + 1] = bytes(Color.SampleLevel(Linear, centre, 0.0));
    // Half-way between texel (x, y) and (x + 1, y), clamped inside the texture.
    float2 between = (float2(min(id.x, 2u) + 1.0, id.y + 0.5)) / size;
    Out[i * 5 + 2] = bytes(Color.SampleLevel(Linear, between, 0));
    // The corner shared by texels (x, y) .. (x + 1, y + 1).
    float2 corner = float2(min(id.x, 2u) + 1.0, min(id.y, 2u) + 1.0) / size;
    Out[i * 5 + 3] = bytes(Color.GatherRed(Point, corner));
    Out[i * 5 + 4] = bytes(Color.GatherAlpha(Point, corner)) + bytes(Color.GatherGreen(Point, corner, int2(0, 0))) * 1000;
}
