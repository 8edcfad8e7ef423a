float Luminance(float c) { return c * 0.7152; }
RWStructuredBuffer<float3> Colors : register(u0);
RWStructuredBuffer<float> Out : register(u1);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = Luminance(Colors[id.x]);
}
