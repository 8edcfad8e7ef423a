struct Particle {
    float3 position;
    float life;
};
RWStructuredBuffer<Particle> Particles : register(u0);
RWStructuredBuffer<float> Life : register(u1);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Life[id.x] = Particles[id.x];
}
