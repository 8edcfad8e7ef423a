// oneshader: -E main -T cs_6_0
// Overloaded functions chosen by argument count and by type (scalar/vector widths,
// int/uint/float), with implicit conversions to the best match, as DXC resolves them.
RWStructuredBuffer<float4> Out : register(u0);

float Weight(float x) { return x * 0.5; }
float Weight(float2 x) { return x.x + x.y; }
float Weight(float3 x) { return dot(x, 1); }
float Weight(int x) { return x * 2; }
float Weight(uint x) { return x * 3; }
float Weight(float x, float y) { return x * y; }
float Weight(float x, float y, float z) { return x + y + z; }

float4 Pack(float a) { return float4(a, 0, 0, 0); }
float4 Pack(float2 a) { return float4(a, 0, 0); }
float4 Pack(float4 a) { return a; }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float r = Weight(1.5) + Weight(float2(1, 2)) + Weight(float3(id));
    r += Weight(int(id.x) - 4) + Weight(id.x) + Weight(2.0, 3.0) + Weight(1, 2, 3);
    r += Weight(id.x * 2u) + Weight(-1);
    Out[id.x] = Pack(r) + Pack(float2(id.xy)) + Pack(float4(1, 2, 3, 4));
}
