RWStructuredBuffer<float> Out : register(u0);
[shader("compute")]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = 1;
}
