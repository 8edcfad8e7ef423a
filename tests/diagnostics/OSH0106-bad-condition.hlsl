#define TILE 16
#if (TILE * TILE > 256
#error tiles too large
#endif
RWStructuredBuffer<float> Out : register(u0);
[numthreads(TILE, TILE, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = 1;
}
