RWStructuredBuffer<float> Out : register(u0);
void Fill(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = 1;
}
