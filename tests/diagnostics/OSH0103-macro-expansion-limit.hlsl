#define TWICE(x) x x
#define X4(x) TWICE(TWICE(x))
#define X16(x) X4(X4(x))
#define X256(x) X16(X16(x))
#define X65536(x) X256(X256(x))
RWStructuredBuffer<float> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = 0 X65536(X4(+ 1));
}
