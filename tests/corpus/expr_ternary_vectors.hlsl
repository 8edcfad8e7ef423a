// oneshader: -E main -T cs_6_0
// The conditional operator on scalars with a scalar or vector condition, nested and in
// arguments; select() with vector and scalar conditions; short-circuit && and || on
// scalars.
RWStructuredBuffer<float4> Out : register(u0);
StructuredBuffer<float4> In : register(t1);

bool Expensive(float x) { return sin(x) > 0; }

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 a = In[id.x];
    float4 b = In[id.x ^ 1];
    float4 m = a > b ? a : b;
    float4 s = (a < 0) ? -a : a;
    float4 z = select(a == b, float4(1, 1, 1, 1), 0.0);
    int2 sel = select(bool2(true, id.x > 2), int2(1, 2), -1);
    float k = id.x > 8 ? 1.0 : id.x > 4 ? 0.5 : 0.25;
    float4 pick = id.x & 1 ? a : b;
    bool guarded = id.x < 8 && Expensive(a.x);
    bool either = id.x == 0 || Expensive(b.y);
    int3 signs = int3(a.xyz) >= 0 ? int3(1, 1, 1) : int3(-1, -1, -1);
    Out[id.x] = float4(sel, 0, 0) + m + s + z * k + pick + (guarded ? 1 : 0) + (either ? 2 : 0) + float4(signs, 0);
}
