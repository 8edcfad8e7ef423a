// oneshader: -E main -T cs_6_0
// for (with empty parts, several variables, declarations shadowing), while, do-while,
// nested loops with break and continue, loops that return early, infinite loops left
// by break.
RWStructuredBuffer<uint> Out : register(u0);
StructuredBuffer<uint> In : register(t1);

uint FindFirst(uint value, uint count)
{
    for (uint i = 0; i < count; ++i) {
        if (In[i] == value)
            return i;
    }
    return 0xFFFFFFFF;
}

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint acc = 0;
    for (uint i = 0; i < 8; i++) {
        if (i == 2)
            continue;
        if (i == 6)
            break;
        for (uint j = i; j < 8; j += 2) {
            if ((i + j) % 3 == 0)
                continue;
            acc += i * j;
        }
    }
    uint n = id.x;
    while (n > 1) {
        n = (n & 1) ? 3 * n + 1 : n / 2;
        acc++;
        if (acc > 1000)
            break;
    }
    uint k = 0;
    do {
        acc ^= k << 3;
        k++;
    } while (k < id.x % 5);
    uint steps = 0;
    for (;;) {
        if (++steps >= 4)
            break;
    }
    int m = 10;
    while (true) {
        m -= 3;
        if (m < 0)
            break;
        else
            continue;
    }
    Out[id.x] = acc + steps + uint(m) + FindFirst(id.x, 16);
}
