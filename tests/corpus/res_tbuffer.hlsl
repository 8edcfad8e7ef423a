// oneshader: -E main -T cs_6_0
// A tbuffer read like a cbuffer (16-byte rows, in a read-only storage buffer), next to a cbuffer.
tbuffer Material : register(t0)
{
    float4 BaseColor;
    float Roughness;
    float Metallic;
    uint MaterialId;
};
cbuffer Params : register(b1) { float Exposure; uint Count; };

RWStructuredBuffer<float4> Out : register(u2);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float k = lerp(Roughness, Metallic, 0.5) * Exposure;
    Out[id.x] = BaseColor * k + float(MaterialId + Count);
}
