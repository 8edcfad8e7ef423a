// switch with fallthrough: chains of cases without break, default in the middle falling
// into a later case, and a fallthrough ending in continue inside a loop.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int r = 0;
    switch (id.x) {
    case 0:
        r += 1;
    case 1:
        r += 10;
    case 2:
        r += 100;
        break;
    case 3:
        r -= 5;
    default:
        r *= 2;
    case 5:
        r += 1000;
    }
    int s = 0;
    for (int i = 0; i < 3; i++) {
        switch (i + int(id.x)) {
        case 1:
            s += 1;
        case 2:
            s += 2;
            continue;
        default:
            s += 100;
        }
        s += 1000;
    }
    Out[id.x * 2] = r;
    Out[id.x * 2 + 1] = s;
}
