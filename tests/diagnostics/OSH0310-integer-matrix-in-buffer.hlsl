// Integer and bool matrices work in locals, statics, groupshared memory and function
// parameters (as arrays of vectors); in buffers their layout is not modelled yet, so
// each buffer holding one is refused by name.
cbuffer Params : register(b0) {
    int2x2 Weights;
};
struct Element {
    float4 position;
    uint3x3 counts;
};
StructuredBuffer<Element> Elements : register(t2);
RWStructuredBuffer<int3x2> Rows : register(u1);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Rows[id.x] = (int3x2)Weights[0].x + (int3x2)Elements[0].counts[1].y;
}
