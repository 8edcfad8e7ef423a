#ifndef TILE_SIZE
#error TILE_SIZE must be defined: pass -D TILE_SIZE=8 or 16
#endif
RWStructuredBuffer<float> Out : register(u0);
[numthreads(TILE_SIZE, TILE_SIZE, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = 1;
}
