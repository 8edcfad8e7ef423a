struct Root { uint shift; };
[[vk::push_constant]] Root first;
[[vk::push_constant]] ConstantBuffer<Root> second;
RWStructuredBuffer<uint> Out : register(u0);
[numthreads(1, 1, 1)] void main() { Out[0] = first.shift + second.shift; }
