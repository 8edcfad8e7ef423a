cbuffer Params : register(b0) {
    float scale;
    float3 offset;
};
RWStructuredBuffer<float3> Out : register(u1);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = offset * scale;
}
