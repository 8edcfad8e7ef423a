struct Light {
    float3 color;
};
struct PointLight : Light {
    float3 position;
};
RWStructuredBuffer<PointLight> Lights : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Lights[id.x].position = 0;
}
