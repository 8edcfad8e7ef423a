// Root constants declared as FidelityFX ParallelSort's Vulkan path does (-D VK_Const):
// a struct global with [[vk::push_constant]], read directly and inside a helper.
struct RootConstants
{
    uint ShiftBit;
    int Bias;
    float Scale;
    uint Count;
};

[[vk::push_constant]] RootConstants Root;

[[vk::binding(0, 0)]] StructuredBuffer<uint> Keys : register(t0);
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Digits : register(u0);
[[vk::binding(2, 0)]] RWStructuredBuffer<float> Scaled : register(u1);

uint Digit(uint key, uint shift)
{
    return (key >> shift) & 0xF;
}

[numthreads(8, 1, 1)]
void main(uint id : SV_DispatchThreadID)
{
    if (id >= Root.Count)
    {
        Digits[id] = 0xFFFFFFFF;
        Scaled[id] = -1.0;
        return;
    }
    Digits[id] = Digit(Keys[id], Root.ShiftBit);
    Scaled[id] = float(int(Keys[id] & 0xFF) + Root.Bias) * Root.Scale;
}
