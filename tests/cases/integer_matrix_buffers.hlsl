// Integer matrices in structured buffers: column_major, as float matrices, so an int RxC
// is C std430 column vectors (a uint3x3 takes three 16-byte columns, an int2x3 three
// 8-byte ones). Read whole and by element from a struct, written whole and by element.
struct Sample
{
    uint3x3 m;
    int tail;
};

StructuredBuffer<Sample> In : register(t0);
RWStructuredBuffer<int2x3> Mats : register(u1);
RWStructuredBuffer<int> Out : register(u2);

[numthreads(1, 1, 1)]
void main()
{
    Sample s = In[0];
    Out[0] = (int)s.m._m01;
    Out[1] = (int)s.m[2].z;
    Out[2] = s.tail;
    Out[3] = (int)In[0].m._m10;
    Out[4] = (int)In[0].m[1][2];
    int2x3 a = int2x3(1, 2, 3, 4, 5, 6);
    Mats[0] = a;
    Mats[1] = a * 10;
    Mats[1][0][2] = -7;
    Mats[1]._m11 += 1;
}
