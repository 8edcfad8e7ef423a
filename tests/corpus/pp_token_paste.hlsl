// oneshader: -E main -T cs_6_0
// Function-like macros with #, ## and __VA_ARGS__, nested expansion, and macros that
// expand to declarations, the way generated shader code uses them.
#define CONCAT_(a, b) a##b
#define CONCAT(a, b) CONCAT_(a, b)
#define STRINGIFY(x) #x
#define DECLARE_BUFFER(type, name, slot) RWStructuredBuffer<type> name : register(u##slot)
#define SUM(...) SumAll(__VA_ARGS__)
#define FIRST(a, ...) (a)
#define REST_COUNT(...) CountArgs(__VA_ARGS__)
#define MAKE_GETTER(field, type) type Get##field(Params p) { return p.field; }
#define SWIZZLE(v, s) (v).s
#define APPLY(f, ...) f(__VA_ARGS__)
#define EMPTY
#define VERSION 3
#define NAME_WITH_VERSION CONCAT(Kernel, VERSION)

DECLARE_BUFFER(uint, Results, 0);
DECLARE_BUFFER(float4, Colors, 1);

struct Params { uint count; float scale; };
MAKE_GETTER(count, uint)
MAKE_GETTER(scale, float)

uint SumAll(uint a, uint b, uint c) { return a + b + c; }
uint CountArgs(uint a, uint b) { return 2; }
uint CountArgs(uint a, uint b, uint c) { return 3; }

uint NAME_WITH_VERSION(uint x) { return x * VERSION; }

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    Params p;
    p.count = id.x;
    p.scale = 0.5;
    uint total = SUM(id.x, id.y, FIRST(gi, 1, 2)) EMPTY;
    total += REST_COUNT(1, 2, 3) + Kernel3(Getcount(p));
    float4 c = float4(SWIZZLE(float3(id), zyx), Getscale(p));
    Colors[gi] = APPLY(max, c, float4(0, 0, 0, 0));
    Results[gi] = total + APPLY(min, id.x, id.y);
}
