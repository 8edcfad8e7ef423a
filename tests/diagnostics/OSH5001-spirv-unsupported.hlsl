RWStructuredBuffer<bool> Visible : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Visible[id.x] = id.x % 2 == 0;
}
