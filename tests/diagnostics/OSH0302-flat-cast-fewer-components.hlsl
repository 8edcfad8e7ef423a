// A cast between aggregates takes the source's components in order; a source with fewer
// components than the target is an error naming both counts.
struct S { float a; float2 b; float c; };
RWStructuredBuffer<float> Out : register(u0);
[numthreads(1, 1, 1)]
void main() {
    float3 v = float3(1, 2, 3);
    S s = (S)v;
    Out[0] = s.a;
}
