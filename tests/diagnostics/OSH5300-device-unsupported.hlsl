// options: --device profiles/swiftshader.json
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(512, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID)
{
    uint lanes = WaveActiveCountBits(id.x > 3);
    Out[id.x] = lanes;
}
