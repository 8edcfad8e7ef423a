// Integer matrices in constant buffers at D3D's offsets: a column_major int2x3 (each
// column starts a 16-byte row), a row_major uint2x2 (each row does), a float after it in
// the last row, and a struct with an int2x2 in a ConstantBuffer<T>.
struct Pair
{
    uint2 head;
    int2x2 m;
};

cbuffer Params : register(b0)
{
    int2x3 Weights;
    row_major uint2x2 Flags;
    float Scale;
};
ConstantBuffer<Pair> Extra : register(b1);
RWStructuredBuffer<int> Out : register(u2);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = Weights._m12;
    Out[1] = (int)Flags[1].x;
    Out[2] = (int)Flags._m01;
    Out[3] = asint(Scale);
    Out[4] = Weights[0].y;
    Out[5] = mul(Weights, int3(1, 1, 1)).x;
    Out[6] = (int)Extra.head.y;
    Out[7] = Extra.m._m10;
    Out[8] = Extra.m[0][1];
}
