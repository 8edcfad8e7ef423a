RWStructuredBuffer<float> Samples : register(u0);
RWStructuredBuffer<float> Out : register(u1);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    double sum = 0;
    for (uint i = 0; i < 16; ++i) {
        sum += Samples[id.x * 16 + i];
    }
    float average = sum / 16;
    Out[id.x] = average;
}
