// oneshader: -E main -T cs_6_0
// Compute system values in an input struct (DXC: the struct is the flattened inputs).
RWStructuredBuffer<uint4> Out : register(u0);
struct ComputeIn
{
    uint3 dispatch : SV_DispatchThreadID;
    uint3 group : SV_GroupID;
    uint3 local : SV_GroupThreadID;
    uint index : SV_GroupIndex;
};

[numthreads(4, 4, 2)]
void main(ComputeIn input)
{
    uint flat = input.dispatch.z * 64 + input.dispatch.y * 8 + input.dispatch.x;
    Out[flat] = uint4(input.group.x * 100 + input.local.x, input.group.y, input.local.z, input.index);
}
