// oneshader: -E main -T cs_6_0
// Default arguments: trailing parameters with constant defaults, static const
// defaults, calls that give none, some or all of them; combined with overloads.
static const float kDefaultScale = 2.0;
RWStructuredBuffer<float> Out : register(u0);

float Scale(float x, float s = kDefaultScale, float bias = 0.5) { return x * s + bias; }
uint Hash(uint x, uint seed = 0x9E3779B9u, uint rounds = 2)
{
    for (uint i = 0; i < rounds; i++)
        x = (x ^ seed) * 0x85EBCA6Bu ^ (x >> 13);
    return x;
}
float3 Tint(float3 c, float3 tint = float3(1, 0.9, 0.8)) { return c * tint; }

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float r = Scale(id.x) + Scale(id.x, 3) + Scale(id.x, 4, 1);
    r += Hash(id.x) % 7 + Hash(id.x, 5) % 11 + Hash(id.x, 5, 4) % 13;
    r += Tint(float3(1, 1, 1)).y + Tint(float3(1, 1, 1), float3(0, 0, 2)).z;
    Out[id.x] = r;
}
