// Texel reads without a sampler: Load (with and without an offset), operator[],
// and both GetDimensions overloads of a Texture2D.
Texture2D<float4> Texels : register(t0);
RWStructuredBuffer<float4> Reads : register(u1);
RWStructuredBuffer<uint> Dims : register(u2);

[numthreads(4, 2, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint i = id.y * 4 + id.x;
    Reads[i * 3 + 0] = Texels.Load(int3(id.xy, 0));
    Reads[i * 3 + 1] = Texels[id.xy];
    // The offset moves one texel right; the last column reads its left neighbour's right.
    Reads[i * 3 + 2] = Texels.Load(int3(min(id.x, 2u), id.y, 0), int2(1, 0));
    if (i == 0) {
        uint width, height, levels;
        Texels.GetDimensions(0, width, height, levels);
        float fw, fh;
        Texels.GetDimensions(fw, fh);
        Dims[0] = width;
        Dims[1] = height;
        Dims[2] = levels;
        Dims[3] = uint(fw * 100.0 + fh);
    }
}
