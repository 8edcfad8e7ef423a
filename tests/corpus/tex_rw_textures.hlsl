// oneshader: -E main -T cs_6_0
// RWTexture1D/2D/3D and RWTexture2DArray with float, uint and int texels: reads,
// writes, read-modify-write through operator[], formats by vk::image_format.
RWTexture1D<float4> Line : register(u0);
RWTexture2D<float4> Image : register(u1);
RWTexture3D<float> Volume : register(u2);
RWTexture2DArray<float4> Layers : register(u3);
[[vk::image_format("r32ui")]] RWTexture2D<uint> Counts : register(u4);
[[vk::image_format("rgba8")]] RWTexture2D<unorm float4> Ldr : register(u5);
RWTexture2D<int> Signed : register(u7);

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 c = Image[id.xy];
    Image[id.xy] = c * 0.5 + Line[id.x];
    Line[id.x] = c;
    Volume[uint3(id.xy, 2)] = c.r;
    Layers[uint3(id.xy, 1)] = Layers[uint3(id.xy, 0)] + c;
    Counts[id.xy] = Counts[id.xy] + 1;
    Ldr[id.xy] = saturate(c);
    Signed[id.xy] = -int(id.x);
}
