float Attenuate(float distance, float radius) {
    return saturate(1 - distance / radius);
}
RWStructuredBuffer<float> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = Attenuate(id.x);
}
