#define OFFSET(base, sign) base ## sign 1
RWStructuredBuffer<uint> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = OFFSET(id.x, +);
}
