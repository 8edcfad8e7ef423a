// oneshader: -E main -T cs_6_0
// ByteAddressBuffer and RWByteAddressBuffer: Load, Load2, Load3, Load4, Store*,
// computed addresses, asfloat of loaded words, GetDimensions.
ByteAddressBuffer Src : register(t0);
RWByteAddressBuffer Dst : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint size;
    Src.GetDimensions(size);
    uint base = id.x * 40;
    if (base + 40 > size)
        return;
    uint a = Src.Load(base);
    uint2 b = Src.Load2(base + 4);
    uint3 c = Src.Load3(base + 12);
    uint4 d = Src.Load4(base + 24);
    float f = asfloat(a) * 2.0;
    Dst.Store(base, asuint(f));
    Dst.Store2(base + 4, b.yx);
    Dst.Store3(base + 12, c + 1);
    Dst.Store4(base + 24, d ^ 0xFFFFFFFFu);
    uint4 back = Dst.Load4(base);
    Dst.Store(base + 36, back.x + back.y + back.z + back.w);
}
