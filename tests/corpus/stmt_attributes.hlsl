// oneshader: -E main -T cs_6_0
// Control-flow attributes are accepted: [unroll], [unroll(n)], [loop], [fastopt],
// [allow_uav_condition] on loops, [branch], [flatten] on if, [forcecase], [call] on
// switch.
RWStructuredBuffer<float> Out : register(u0);
StructuredBuffer<uint> Limits : register(t1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float acc = 0;
    [unroll]
    for (int i = 0; i < 4; i++)
        acc += i;
    [unroll(8)]
    for (uint j = 0; j < id.x % 8; j++)
        acc *= 1.01;
    [loop]
    for (uint k = 0; k < Limits[0]; k++)
        acc += sqrt(float(k));
    [fastopt]
    while (acc > 100)
        acc *= 0.5;
    [allow_uav_condition]
    for (uint u = 0; Out[u] < 0.0 && u < 16; u++)
        acc -= 1;
    [branch]
    if (id.x & 1)
        acc = -acc;
    [flatten]
    if (acc < 0)
        acc = abs(acc);
    else
        acc += 1;
    [forcecase]
    switch (id.x % 3) {
    case 0: acc += 1; break;
    case 1: acc += 2; break;
    default: break;
    }
    [call]
    switch (id.x % 2) {
    case 0: acc -= 1; break;
    default: acc -= 2; break;
    }
    Out[id.x] = acc;
}
