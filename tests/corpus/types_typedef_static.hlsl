// oneshader: -E main -T cs_6_0
// typedef of scalars, vectors, arrays and structs, a typedef as a constructor;
// static const scalars and vectors; static (private) globals written by one function
// and read by another.
typedef float real;
typedef float3 color3;
typedef uint Index;
typedef float Kernel3[3];
struct LightDesc { color3 color; real intensity; };
typedef LightDesc Light;

static const real kGamma = 2.2;
static const color3 kTint = color3(1.0, 0.95, 0.9);
static const Index kMask = 0xF;
static Index gVisited;
static real gScale = 2.0;

void Visit(Index i) { gVisited |= 1u << (i & kMask); gScale *= 0.5; }

RWStructuredBuffer<float4> Out : register(u0);

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    gVisited = 0;
    Kernel3 k = { 0.25, 0.5, 0.25 };
    Light l;
    l.color = kTint;
    l.intensity = k[1];
    Visit(id.x);
    Visit(id.x + 3);
    color3 c = pow(l.color * l.intensity, 1.0 / kGamma) * gScale;
    Out[id.x] = float4(c, gVisited);
}
