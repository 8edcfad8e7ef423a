// oneshader: -E SkinVS -T vs_6_0
// oneshader: -E SkinCS -T cs_6_0
// Linear blend skinning with four bone influences, in a vertex shader (bones in a
// StructuredBuffer of matrices) and as a compute pre-pass writing a vertex buffer
// through a RWByteAddressBuffer.
cbuffer Camera : register(b0) { float4x4 ViewProj; uint VertexCount; };
StructuredBuffer<float4x4> Bones : register(t1);
ByteAddressBuffer SourceVertices : register(t2);
RWByteAddressBuffer SkinnedVertices : register(u3);

float4x4 BlendBones(uint4 indices, float4 weights)
{
    return Bones[indices.x] * weights.x + Bones[indices.y] * weights.y
         + Bones[indices.z] * weights.z + Bones[indices.w] * weights.w;
}

struct VSIn { float3 pos : POSITION; float3 normal : NORMAL; uint4 joints : BLENDINDICES; float4 weights : BLENDWEIGHT; };
struct VSOut { float4 pos : SV_Position; float3 normal : NORMAL; };

VSOut SkinVS(VSIn v)
{
    float4x4 skin = BlendBones(v.joints, v.weights);
    VSOut o;
    float4 world = mul(skin, float4(v.pos, 1));
    o.pos = mul(ViewProj, world);
    o.normal = normalize(mul((float3x3)skin, v.normal));
    return o;
}

[numthreads(64, 1, 1)]
void SkinCS(uint id : SV_DispatchThreadID)
{
    if (id >= VertexCount)
        return;
    uint base = id * 32;
    float3 pos = asfloat(SourceVertices.Load3(base));
    uint packedJoints = SourceVertices.Load(base + 12);
    float4 weights = asfloat(SourceVertices.Load4(base + 16));
    uint4 joints = uint4(packedJoints & 0xFF, (packedJoints >> 8) & 0xFF, (packedJoints >> 16) & 0xFF, packedJoints >> 24);
    float4 world = mul(BlendBones(joints, weights), float4(pos, 1));
    SkinnedVertices.Store3(id * 12, asuint(world.xyz));
}
