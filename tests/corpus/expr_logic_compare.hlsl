// oneshader: -E main -T cs_6_0
// Comparison operators on scalars and vectors, !, && and || on scalars,
// and()/or() per component (HLSL 2021), any/all, bool vectors as numbers.
RWStructuredBuffer<uint4> Out : register(u0);
StructuredBuffer<float4> In : register(t1);

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 a = In[id.x];
    float4 b = In[15 - id.x];
    bool4 lt = a < b, le = a <= b, gt = a > b, ge = a >= b, eq = a == b, ne = a != b;
    bool4 both = and(lt, ne);
    bool4 either = or(gt, eq);
    bool2 mixed = or(and(either.xy, true), false);
    bool4 notLe = !le;
    bool s = a.x < b.x && !(a.y == b.y) || a.z != b.z;
    uint4 r = uint4(both) + uint4(either) * 2 + uint4(notLe) * 4 + uint4(ge) * 8;
    r.x += any(lt) ? 16 : 0;
    r.y += all(ge) ? 32 : 0;
    r.z += s + mixed.y;
    r.w += !any(a) + all(b != 0);
    Out[id.x] = r;
}
