// oneshader: -E main -T cs_6_0
// in, out and inout parameters of scalars, vectors, arrays and structs; out arguments
// that are swizzles, array elements, struct members and buffer elements; a function
// that assigns its in parameter (a copy).
struct Stats { float minV; float maxV; uint n; };
RWStructuredBuffer<float4> Out : register(u0);
RWStructuredBuffer<float> Scratch : register(u1);

void SinCosPair(float x, out float s, out float c) { s = sin(x); c = cos(x); }
void Accumulate(inout Stats st, float v) { st.minV = min(st.minV, v); st.maxV = max(st.maxV, v); st.n++; }
void Swap(inout float a, inout float b) { float t = a; a = b; b = t; }
void Fill(out float values[3]) { values[0] = 1; values[1] = 2; values[2] = 3; }
void Normalize(inout float3 v) { v = normalize(v); }
float Consume(in float x) { x *= 2; return x; }
void Split(uint packed, out uint lo, out uint hi) { lo = packed & 0xFFFF; hi = packed >> 16; }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 v = 0;
    SinCosPair(id.x * 0.1, v.x, v.w);
    Stats st;
    st.minV = 1e30;
    st.maxV = -1e30;
    st.n = 0;
    float values[3];
    Fill(values);
    for (uint i = 0; i < 3; i++)
        Accumulate(st, values[i] * v.x);
    Swap(values[0], values[2]);
    Swap(v.y, v.z);
    float3 dir = float3(1, 2, 3);
    Normalize(dir);
    float x = 4;
    float y = Consume(x);
    uint2 halves;
    Split(id.x * 0x10001u, halves.x, halves.y);
    SinCosPair(values[1], Scratch[id.x], st.minV);
    Out[id.x] = v + float4(dir, x + y) + float4(st.minV, st.maxV, st.n, values[0]) + float4(halves, 0, 0);
}
