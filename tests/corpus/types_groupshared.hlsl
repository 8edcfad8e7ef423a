// oneshader: -E main -T cs_6_0
// groupshared scalars, vectors, 2D arrays and arrays of structs, with barriers between
// the phases and a tree reduction.
#define GROUP 64
groupshared float gsValues[GROUP];
groupshared float2 gsTile[8][8];
struct MinMax { float lo; float hi; };
groupshared MinMax gsRange[GROUP];
groupshared uint gsFlag;

StructuredBuffer<float> Input : register(t0);
RWStructuredBuffer<float4> Out : register(u1);

[numthreads(GROUP, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex, uint3 gtid : SV_GroupThreadID)
{
    float v = Input[gid.x * GROUP + gi];
    gsValues[gi] = v;
    gsRange[gi].lo = v;
    gsRange[gi].hi = v;
    gsTile[gi / 8][gi % 8] = float2(v, -v);
    if (gi == 0)
        gsFlag = 0;
    GroupMemoryBarrierWithGroupSync();
    for (uint stride = GROUP / 2; stride > 0; stride >>= 1) {
        if (gi < stride) {
            gsValues[gi] += gsValues[gi + stride];
            gsRange[gi].lo = min(gsRange[gi].lo, gsRange[gi + stride].lo);
            gsRange[gi].hi = max(gsRange[gi].hi, gsRange[gi + stride].hi);
        }
        GroupMemoryBarrierWithGroupSync();
    }
    float2 t = gsTile[gtid.x % 8][7 - gtid.x % 8];
    if (gi == 0)
        Out[gid.x] = float4(gsValues[0], gsRange[0].lo, gsRange[0].hi, t.x + t.y);
}
