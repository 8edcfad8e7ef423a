// oneshader: -E main -T cs_6_0
// Every 32-bit scalar spelling: bool, int, uint, dword, float, half (a float without
// 16-bit types), min16float/min16int/min16uint, min10float/min12int, the sized
// aliases, and conversions between them.
RWStructuredBuffer<uint> Words : register(u0);
RWStructuredBuffer<float> Floats : register(u1);

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    bool b = id.x > 3;
    int i = -int(id.x);
    uint u = id.x * 3u;
    dword d = u ^ 0xFFu;
    float f = 1.5f * i;
    half h = 0.25h + f;
    min16float m = min16float(h) * 2.0;
    min16int mi = min16int(i) - 1;
    min16uint mu = min16uint(u) + 2u;
    min10float m10 = 0.5;
    min12int m12 = 3;
    int32_t i32 = i;
    uint32_t u32 = u;
    float32_t f32 = f;
    float r = f + h + m + mi + mu + m10 + m12 + i32 + u32 + f32 + b;
    Words[id.x] = uint(b) + asuint(i) + d + (b ? 1u : 0u);
    Floats[id.x] = r;
}
