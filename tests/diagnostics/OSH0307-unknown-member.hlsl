RWStructuredBuffer<float> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    float2 uv = id.xy / 64.0;
    Out[id.x] = uv.z;
}
