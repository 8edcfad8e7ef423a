// oneshader: -E main -T cs_6_0
// Vectors spelled as float4 and vector<T, N>, one-component vectors, splats from
// scalars, constructors from mixed pieces, bool vectors and vector comparisons.
RWStructuredBuffer<float4> Out : register(u0);
RWStructuredBuffer<int2> Ints : register(u1);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    vector<float, 4> a = vector<float, 4>(1, 2, 3, 4);
    vector<float, 3> b = a.xyz;
    float1 one = 2.0;
    float2 two = float2(one, one.x);
    float4 splat = 0.5;
    float4 mixed = float4(two, b.z, 1);
    int3 ints = int3(id);
    uint2 words = uint2(ints.xy) + 1;
    bool4 cmp = a > splat;
    bool2 both = bool2(true, ints.x != 0);
    vector<int, 2> packed = int2(words) * int2(cmp.xy) + int2(both);
    Out[id.x] = mixed + a * float4(cmp) + float4(b, one);
    Ints[id.x] = packed;
}
