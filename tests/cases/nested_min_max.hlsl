// min and max nested around a negated operand: each lane's value is checked. NVIDIA's Vulkan
// driver 580 drops the negation in min(min(y, -x), z) and max(max(y & 7, -x), x ^ -18) (it
// computes them with x), so this case fails there (docs/testing.md, "Driver bugs").
StructuredBuffer<int> X : register(t0);
StructuredBuffer<int> Y : register(t1);
StructuredBuffer<int> Z : register(t2);
RWStructuredBuffer<int> Out : register(u3);

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    int x = X[i];
    int y = Y[i];
    int z = Z[i];
    Out[i * 6 + 0] = min(min(y, -x), z);
    Out[i * 6 + 1] = max(max(y & 7, -x), x ^ (-18));
    Out[i * 6 + 2] = max(max(y, -x), z);
    Out[i * 6 + 3] = min(y, -x);
    Out[i * 6 + 4] = max(max(1, -x), x ^ (-18));
    Out[i * 6 + 5] = min(min(-x, y), z);
}
