RWStructuredBuffer<float> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    double sum = id.x;
    Out[id.x] = (float)(sum / 3);
}
