// oneshader: -E main -T cs_6_0
// StructuredBuffer and RWStructuredBuffer of structs with vectors, arrays and nested
// structs: whole-element reads and writes, member writes, GetDimensions.
struct Transform { float3 position; float scale; float4 rotation; };
struct Particle
{
    Transform xf;
    float3 velocity;
    float life;
    uint flags;
    float history[3];
};

StructuredBuffer<Particle> ParticlesIn : register(t0);
RWStructuredBuffer<Particle> ParticlesOut : register(u1);
RWStructuredBuffer<uint2> Stats : register(u2);

cbuffer Sim : register(b3) { float3 Gravity; float DeltaTime; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint count, stride;
    ParticlesIn.GetDimensions(count, stride);
    if (id.x >= count)
        return;
    Particle p = ParticlesIn[id.x];
    p.velocity += Gravity * DeltaTime;
    p.xf.position += p.velocity * DeltaTime;
    p.life -= DeltaTime;
    p.history[2] = p.history[1];
    p.history[1] = p.history[0];
    p.history[0] = p.xf.position.y;
    if (p.life <= 0)
        p.flags |= 1;
    ParticlesOut[id.x] = p;
    ParticlesOut[id.x].xf.scale = saturate(p.life);
    Stats[id.x] = uint2(stride, p.flags);
}
