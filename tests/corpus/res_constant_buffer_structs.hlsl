// oneshader: -E main -T cs_6_0
// Structs inside cbuffers, packoffset, ConstantBuffer<T> of structs, arrays of scalars
// (16-byte stride) and bools in cbuffers.
struct Light { float3 position; float range; float3 color; float intensity; };
struct Camera { float4x4 viewProj; float3 eye; float nearZ; };

cbuffer Scene : register(b0)
{
    Camera camera;
    Light lights[4];
    float weights[4];
    bool enabled;
    uint lightCount : packoffset(c22.x);
};
ConstantBuffer<Camera> ShadowCamera : register(b1);
RWStructuredBuffer<float4> Out : register(u2);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Light l = lights[id.x];
    float4 p = mul(camera.viewProj, float4(l.position, 1));
    float4 s = mul(ShadowCamera.viewProj, float4(l.position, 1));
    Out[id.x] = enabled ? p * weights[id.x] + s + float4(l.color * l.intensity, lightCount) : 0;
}
