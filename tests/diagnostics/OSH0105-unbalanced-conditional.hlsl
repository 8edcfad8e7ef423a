RWStructuredBuffer<float> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
#ifdef FAST_PATH
    Out[id.x] = 2;
#else
    Out[id.x] = 1;
}
