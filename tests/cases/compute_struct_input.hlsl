// Compute system values gathered in an input struct, next to a plain parameter with
// its own semantic: each thread writes its IDs where its dispatch ID says.
RWStructuredBuffer<uint4> Out : register(u0);

struct ThreadIds
{
    uint3 group : SV_GroupID;
    uint3 local : SV_GroupThreadID;
    uint index : SV_GroupIndex;
};

[numthreads(4, 2, 2)]
void main(ThreadIds ids, uint3 dispatch : SV_DispatchThreadID)
{
    uint flat = (dispatch.z * 4 + dispatch.y) * 8 + dispatch.x;
    Out[flat] = uint4(ids.group.x * 100 + ids.group.y * 10 + ids.group.z,
                      ids.local.x * 100 + ids.local.y * 10 + ids.local.z,
                      ids.index,
                      dispatch.x * 100 + dispatch.y * 10 + dispatch.z);
}
