// What differs between languages, as D3D defines it: truncating division and
// remainder of negatives, shift counts masked to the width, float to int
// truncation, unsigned wrap-around, and control flow with switch and loops.
StructuredBuffer<int> A : register(t0);
StructuredBuffer<int> B : register(t1);
RWStructuredBuffer<int> Out : register(u2);

int classify(int v)
{
    switch (v & 3)
    {
    case 0:
        return 10;
    case 1:
    case 2:
        return 20;
    default:
        break;
    }
    return 30;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int a = A[id.x];
    int b = B[id.x];
    uint base = id.x * 8;
    Out[base + 0] = a / b;
    Out[base + 1] = a % b;
    Out[base + 2] = a << (b + 32);
    Out[base + 3] = a >> 33;
    Out[base + 4] = (int)((float)a * 0.75f);
    uint u = (uint)a;
    Out[base + 5] = (int)(u >> 28);
    int sum = 0;
    for (int i = 0; i < 6; i++)
    {
        if (i == 2)
            continue;
        sum += i * b;
    }
    Out[base + 6] = sum;
    int k = 0;
    do
    {
        k++;
    } while (k < (a & 7));
    Out[base + 7] = classify(a) + k;
}
