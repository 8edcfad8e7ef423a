// oneshader: -E main -T cs_6_0
// switch on int and uint with fallthrough between cases, several labels on one body,
// default in the middle, nested switch, break out of a loop inside a case, return
// from a case, and an empty case list ending in default.
RWStructuredBuffer<int> Out : register(u0);

int Classify(int v)
{
    switch (v) {
    case 0:
        return 100;
    case 1:
    case 2:
        return 200;
    default:
        return -1;
    }
}

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int r = 0;
    switch (id.x % 6) {
    case 0:
        r += 1;
    case 1:
        r += 10;
        break;
    default:
        r -= 5;
    case 3:
        r *= 2;
        break;
    case 4: {
        int local = int(id.x) * 3;
        for (int i = 0; i < 10; i++) {
            if (i * local > 20)
                break;
            r += i;
        }
        break;
    }
    case 5:
        switch (id.x & 1) {
        case 0: r = 7; break;
        case 1: r = 8; break;
        }
        break;
    }
    uint mode = id.x >> 2;
    switch (mode) {
    default:
        r += 1000;
        break;
    }
    Out[id.x] = r + Classify(int(id.x) - 1);
}
