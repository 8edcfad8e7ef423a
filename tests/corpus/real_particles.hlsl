// oneshader: -E SimulateCS -T cs_6_0
// oneshader: -E ParticleVS -T vs_6_0
// oneshader: -E ParticlePS -T ps_6_0
// GPU particles: a simulation pass over a RWStructuredBuffer of structs with a
// curl-like force field, and billboard rendering that expands quads from
// SV_VertexID/SV_InstanceID reading the same buffer as a StructuredBuffer.
struct Particle { float3 position; float age; float3 velocity; float size; float4 color; };

cbuffer Frame : register(b0) { float4x4 ViewProj; float3 CameraRight; float DeltaTime; float3 CameraUp; uint Count; };
RWStructuredBuffer<Particle> ParticlesRW : register(u1);
StructuredBuffer<Particle> Particles : register(t2);
Texture2D<float4> Sprite : register(t3);
SamplerState Linear : register(s4);

float3 Field(float3 p)
{
    return float3(sin(p.y * 1.3) - cos(p.z * 0.7), sin(p.z * 1.1) - cos(p.x * 0.9), sin(p.x * 0.8) - cos(p.y * 1.7));
}

[numthreads(256, 1, 1)]
void SimulateCS(uint id : SV_DispatchThreadID)
{
    if (id >= Count)
        return;
    Particle p = ParticlesRW[id];
    p.velocity = p.velocity * 0.98 + Field(p.position) * DeltaTime;
    p.position += p.velocity * DeltaTime;
    p.age += DeltaTime;
    p.color.a = saturate(1 - p.age / 5);
    if (p.age > 5) {
        p.age = 0;
        p.position = float3(0, 0, 0);
    }
    ParticlesRW[id] = p;
}

struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; float4 color : COLOR0; };

VSOut ParticleVS(uint vid : SV_VertexID, uint iid : SV_InstanceID)
{
    static const float2 corners[4] = { float2(-1, -1), float2(1, -1), float2(-1, 1), float2(1, 1) };
    Particle p = Particles[iid];
    float2 c = corners[vid & 3];
    float3 world = p.position + (CameraRight * c.x + CameraUp * c.y) * p.size;
    VSOut o;
    o.pos = mul(ViewProj, float4(world, 1));
    o.uv = c * 0.5 + 0.5;
    o.color = p.color;
    return o;
}

float4 ParticlePS(VSOut i) : SV_Target
{
    float4 s = Sprite.Sample(Linear, i.uv) * i.color;
    if (s.a < 1.0 / 255)
        discard;
    return s;
}
