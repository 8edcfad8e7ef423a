RWStructuredBuffer<float4> Out : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    vec4 color = float4(1, 0.5, 0.25, 1);
    Out[id.x] = color;
}
