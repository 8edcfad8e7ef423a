// Integer and bool matrices work in locals, statics, groupshared memory, parameters and
// constant buffers, and integer ones in structured buffers; a bool matrix in a
// structured buffer has no layout there yet, so each buffer holding one is refused.
struct Element {
    float4 position;
    bool3x3 visible;
};
StructuredBuffer<Element> Elements : register(t2);
RWStructuredBuffer<bool2x2> Masks : register(u1);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Masks[id.x] = Elements[0].visible[1].y;
}
