// Byte-address buffers read and written several words at a time, typed loads and
// stores of float bits, and GetDimensions.
ByteAddressBuffer Input : register(t0);
RWByteAddressBuffer Output : register(u1);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint base = id.x * 16;
    uint4 all = Input.Load4(base);
    uint2 pair = Input.Load2(base + 4);
    uint3 three = Input.Load3(base);
    float asFloat = Input.Load<float>(base + 12);
    uint size;
    Input.GetDimensions(size);

    Output.Store4(base * 2, all.wzyx);
    Output.Store2(base * 2 + 16, pair + three.xy);
    Output.Store(base * 2 + 24, asFloat * 2.0f);
    Output.Store(base * 2 + 28, size);
}
