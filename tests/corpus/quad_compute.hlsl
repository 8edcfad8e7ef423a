// oneshader: -E main -T cs_6_0
// Quad intrinsics in compute on an 8x8 group (quads of 4 consecutive lanes): a 2x2
// box filter from QuadReadAcrossX/Y/Diagonal and QuadReadLaneAt with every lane.
Texture2D<float4> Source : register(t0);
RWTexture2D<float4> Half : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex)
{
    uint2 xy = gid.xy * 8 + uint2(((gi >> 1) & 1) | ((gi >> 2) & 6), (gi & 1) | ((gi >> 3) & 6));
    float4 c = Source.Load(int3(xy, 0));
    c += QuadReadAcrossX(c);
    c += QuadReadAcrossY(c);
    float4 d = QuadReadAcrossDiagonal(c);
    float4 all4 = QuadReadLaneAt(c, 0) + QuadReadLaneAt(c, 1) + QuadReadLaneAt(c, 2) + QuadReadLaneAt(c, 3);
    if ((gi & 3) == 0)
        Half[xy / 2] = (c * 0.25 + d * 0 + all4 * 0);
}
