// oneshader: -E main -T cs_6_0
// Prefix and postfix ++/-- on ints, uints, floats, vector components, array elements
// and struct members, used as values; the comma operator in for loops and expressions.
struct Counter { uint hits; float weight; };
RWStructuredBuffer<uint4> Out : register(u0);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint i = id.x;
    uint a = i++;
    uint b = ++i;
    uint c = i--;
    uint d = --i;
    float f = 1.5;
    f++;
    --f;
    int2 v = int2(1, 2);
    v.x++;
    --v.y;
    v++;
    uint arr[2] = { 5, 6 };
    arr[id.x & 1]++;
    Counter ctr;
    ctr.hits = 0;
    ctr.weight = 0;
    ctr.hits++;
    ++ctr.weight;
    uint total = 0;
    for (uint j = 0, k = 10; j < k; j++, k--)
        total += j * k;
    uint e = (a += 1, b *= 2, a + b);
    Out[id.x] = uint4(a + b, c + d + e, uint(f) + v.x + v.y, total + arr[0] + arr[1] + ctr.hits + uint(ctr.weight));
}
