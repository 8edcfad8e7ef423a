RWStructuredBuffer<float4> Colors : register(u0);
RWStructuredBuffer<float3> Out : register(u1);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    float4 color = Colors[id.x];
    float3 rgb = color;
    Out[id.x] = rgb;
}
