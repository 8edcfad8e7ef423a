RWStructuredBuffer<float> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    float sample = id.x;
    float in = sample * 2;
    Out[id.x] = in;
}
