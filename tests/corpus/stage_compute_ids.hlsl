// oneshader: -E main -T cs_6_0
// oneshader: -E Flat -T cs_6_0
// Every compute system value, as uint3, uint2, uint and one component, in parameters; 3D and 1D group shapes.
RWStructuredBuffer<uint4> Out : register(u0);

[numthreads(4, 4, 2)]
void main(uint3 dispatch : SV_DispatchThreadID, uint3 group : SV_GroupID, uint3 local : SV_GroupThreadID, uint index : SV_GroupIndex)
{
    struct { uint3 dispatch; uint3 group; uint3 local; uint index; } input;
    input.dispatch = dispatch;
    input.group = group;
    input.local = local;
    input.index = index;
    uint flat = input.dispatch.z * 64 + input.dispatch.y * 8 + input.dispatch.x;
    Out[flat] = uint4(input.group.x * 100 + input.local.x, input.group.y, input.local.z, input.index);
}

[numthreads(128, 1, 1)]
void Flat(uint id : SV_DispatchThreadID, uint2 group : SV_GroupID, uint local : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Out[id] = uint4(id, group.x, local, gi);
}
