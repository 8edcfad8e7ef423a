// 1xN and Nx1 matrices are rejected by name, never lowered as vectors: m[0] of a
// float1x4 is the whole row, not component 0. Every spelling gets its own error.
cbuffer Params : register(b0) {
    float1x4 RowMatrix;
};
struct Element {
    matrix<float, 2, 1> column;
};
StructuredBuffer<Element> Elements : register(t2);
RWStructuredBuffer<float4> Out : register(u1);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4x1 column = float4x1(1, 2, 3, 4);
    int1x3 row = 0;
    Out[id.x].xy = float1x2(5, 6)[0];
}
