// Structs, arrays and packoffset in constant buffers, at D3D's offsets. Every word of
// the buffers holds its own index (P: 100 + index), so each field read back is the word
// index where D3D's packing puts it.
struct Light
{
    float3 dir;
    float intensity;
    float2 uv;
};

struct Params
{
    float a;
    float2 b;      // shares row 0 with a: offset 4
    Light lights[2]; // each element starts a row: offsets 16 and 48
};

cbuffer C : register(b0)
{
    float arr[3];           // 0, 16, 32: one row per element
    float after;            // 36: in the last row of arr
    Light light;            // 48: a struct starts a row
    float tail;             // 72: in the last row of light
    row_major float2x3 rm;  // 80: one row per matrix row
    float3x2 cm;            // 112: one row per column
    uint flags[2];          // 144, 160
    bool enabled;           // 164
    float2 pk : packoffset(c12.z); // 200
};

// Only scalars and vectors, but a float3 at 4 and a float2 at 20: WGSL's uniform
// rules cannot place them, so this one is row-packed too.
cbuffer D : register(b3)
{
    float ds;   // 0
    float3 dv;  // 4
    float dt;   // 16
    float2 dw;  // 20
};

ConstantBuffer<Params> P : register(b1);
RWStructuredBuffer<uint> Out : register(u2);

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint t = id.x;
    uint o = t * 24;
    Light l = light;
    Params p = P;
    float copy[3] = arr;
    float2x3 r = rm;
    Out[o + 0] = asuint(arr[t]);
    Out[o + 1] = asuint(after);
    Out[o + 2] = asuint(l.dir.x);
    Out[o + 3] = asuint(l.dir.z);
    Out[o + 4] = asuint(l.intensity);
    Out[o + 5] = asuint(l.uv.y);
    Out[o + 6] = asuint(tail);
    Out[o + 7] = asuint(rm[1][2]);
    Out[o + 8] = asuint(rm[0][1]);
    Out[o + 9] = asuint(cm[2][1]);
    Out[o + 10] = flags[t];
    Out[o + 11] = enabled ? 7u : 3u;
    Out[o + 12] = asuint(pk.y);
    Out[o + 13] = asuint(copy[2]);
    Out[o + 14] = asuint(p.lights[t].uv.x);
    Out[o + 15] = asuint(p.b.y);
    Out[o + 16] = asuint(P.lights[1].intensity);
    Out[o + 17] = asuint(p.lights[t].dir.z);
    Out[o + 18] = asuint(p.a);
    Out[o + 19] = asuint(r[1][0]);
    Out[o + 20] = asuint(dv.z);
    Out[o + 21] = asuint(dw.x);
    Out[o + 22] = asuint(dt);
    Out[o + 23] = asuint(ds);
}
