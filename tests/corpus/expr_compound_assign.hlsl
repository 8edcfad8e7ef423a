// oneshader: -E main -T cs_6_0
// Every compound assignment on scalars, vectors, swizzles, array elements, struct
// members and buffer elements; chained assignment.
struct Acc { float4 v; int n; };
RWStructuredBuffer<float4> Out : register(u0);
RWStructuredBuffer<int> Counts : register(u1);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 v = float4(id, 1);
    v += 1; v -= float4(0.5, 0.5, 0, 0); v *= 2; v /= float4(1, 2, 4, 8); v %= 3;
    v.xy += v.zw; v.zw *= 0.5; v.x -= v.y;
    int i = int(id.x) + 100;
    i += 5; i -= 3; i *= 7; i /= 2; i %= 13;
    i <<= 2; i >>= 1; i &= 0xFF; i |= 0x100; i ^= 0x55;
    uint4 u = id.xyzx;
    u.yz <<= 3; u >>= 1; u &= 0xF; u |= uint4(1, 0, 0, 0); u ^= 6;
    float arr[3] = { 1, 2, 3 };
    arr[id.x % 3] *= 4;
    arr[1] += arr[2];
    Acc acc;
    acc.v = v;
    acc.n = i;
    acc.v.w /= 2;
    acc.n -= 1;
    float a, b, c;
    a = b = c = arr[0];
    Out[id.x] = acc.v + float4(u) + a + b + c;
    Out[id.x].y += arr[1];
    Counts[id.x] = acc.n;
    Counts[id.x] *= 2;
}
