RWStructuredBuffer<float4> Positions : register(u0);
RWStructuredBuffer<float3> Out : register(u1);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    float3 offset = float3(0, 1, 0);
    Out[id.x] = Positions[id.x] + offset;
}
