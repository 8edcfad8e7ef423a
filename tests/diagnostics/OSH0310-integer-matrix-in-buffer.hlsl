// Integer and bool matrices work in locals, statics, groupshared memory and function
// parameters (as arrays of vectors), and integer ones in structured buffers; a constant
// buffer's 16-byte rows and a bool matrix in any buffer are not modelled yet, so each
// buffer holding one is refused by name.
cbuffer Params : register(b0) {
    int2x2 Weights;
};
struct Element {
    float4 position;
    bool3x3 visible;
};
StructuredBuffer<Element> Elements : register(t2);
RWStructuredBuffer<int3x2> Rows : register(u1);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Rows[id.x] = (int3x2)Weights[0].x + (int3x2)Elements[0].visible[1].y;
}
