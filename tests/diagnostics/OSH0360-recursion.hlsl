uint Factorial(uint n) {
    return n <= 1 ? 1 : n * Factorial(n - 1);
}
RWStructuredBuffer<uint> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = Factorial(id.x % 8);
}
