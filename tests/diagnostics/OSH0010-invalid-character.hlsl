RWStructuredBuffer<float> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    float scale = 0.5;
    Out[id.x] = $scale * id.x;
}
