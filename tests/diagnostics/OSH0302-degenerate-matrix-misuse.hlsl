// A 1xN matrix has one row, a 3x1 matrix one column: rows past them, swizzles naming
// elements outside them and products whose inner dimensions differ are errors.
RWStructuredBuffer<float> Out : register(u1);
[numthreads(1, 1, 1)]
void main() {
    float1x4 row = float1x4(1, 2, 3, 4);
    float3x1 column = float3x1(1, 2, 3);
    Out[0] = row[1].x;
    Out[1] = row._m10;
    Out[2] = column._m01;
    Out[3] = mul(row, column);
}
