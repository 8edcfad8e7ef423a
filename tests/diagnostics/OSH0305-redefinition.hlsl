RWStructuredBuffer<float> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    float total = 0;
    for (uint i = 0; i < 4; ++i) {
        total += i;
    }
    float total = total * 0.25;
    Out[id.x] = total;
}
