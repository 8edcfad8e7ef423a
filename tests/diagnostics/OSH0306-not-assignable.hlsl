StructuredBuffer<float> Values : register(t0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Values[id.x] = Values[id.x] * 2;
}
