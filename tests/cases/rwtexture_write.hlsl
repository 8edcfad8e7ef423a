// Storage textures: writes through operator[] to an rgba32float texture, and
// read-modify-write of r32uint and r32float texels (operator[] read, +=).
RWTexture2D<float4> Colors : register(u0);
RWTexture2D<uint> Counts : register(u1);
RWTexture2D<float> Heights : register(u2);

[numthreads(4, 4, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Colors[id.xy] = float4(id.x, id.y, id.x * id.y, -1.5);
    Counts[id.xy] = Counts[id.xy] * 2 + id.x;
    Heights[id.xy] += 0.25 * id.y;
}
