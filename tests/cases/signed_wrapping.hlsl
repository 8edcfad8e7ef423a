// Signed integer arithmetic wraps as in DXC (two's complement), on every target: MSL
// (C++) leaves signed overflow undefined, so its writer computes in the unsigned type.
StructuredBuffer<int> In : register(t0);
RWStructuredBuffer<int> Out : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    int intMax = In[0];
    int intMin = In[1];
    int minusOne = In[2];
    int big = In[3];
    int minusFive = In[4];
    Out[0] = intMax + 1;
    Out[1] = intMin - 1;
    Out[2] = intMin * minusOne;
    Out[3] = -intMin;
    Out[4] = big * big;
    Out[5] = minusFive << 29;
    Out[6] = (-1705498132) * (-146722899);
    int2 v = int2(intMax, big) * int2(3, big);
    Out[7] = v.x + v.y;
    int sum = intMax;
    sum += intMax;
    Out[8] = sum;
    int2 shifted = int2(minusFive, minusOne) << 30;
    Out[9] = shifted.x + shifted.y;
}
