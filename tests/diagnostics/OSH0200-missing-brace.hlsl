RWStructuredBuffer<float> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    if (id.x < 32) {
        Out[id.x] = 1;
    else {
        Out[id.x] = 0;
    }
}
