// seed: 105
// NVIDIA Vulkan driver 580.159.04 (H200): this dispatch never finishes (VK_ERROR_DEVICE_LOST
// or a fence that is never signalled); lavapipe, SwiftShader and Dawn run it at once.
// Cut down from seed 105, programs 50-74 (program 72), by tests/driver_bugs/README.md's method.
// A ?: whose constant condition picks a WaveActiveBitOr, twice, inside a loop inside a branch
// taken by some lanes: every smaller variant tried (one ?:, no store, the call without ?:, a
// uniform branch, a non-constant condition) runs. The SPIR-V is structured and valid.
// expect: runs
StructuredBuffer<uint> In : register(t0);
RWStructuredBuffer<uint> Out : register(u1);
groupshared uint Shared[64];
void program22(uint tid) {
    if ((In[(tid) & 255] < (In[(tid) & 255] ^ tid))) {
        int v0 = (((int)(((uint)(firstbitlow(In[(tid) & 255]))))) ^ (((int)(In[(tid) & 255])) >> (1000083855 >> ((int)(tid)))));
        for (int v1 = 0; v1 < 3; v1++) {
            uint a0[4] = { ((uint)(v0)), (2137992729u - ((uint)(v1))), ((uint)(v1)), ((uint)(v1)) };
            Out[11456 + tid * 8 + 2] = (uint)((1741837044u % (((uint)(firstbitlow((((int)(In[(In[(3u) & 255]) & 255])) - ((int)(a0[(((uint)(v0))) & 3])))))) | 1u)));
            v0 ^= (0 / ((((4294967258u == 1u) ? ((int)(firstbithigh(((uint)(v1))))) : ((int)(WaveActiveBitOr(593076952u)))) | 1) + (((int)(((((4294967258u == 1u) ? ((int)(firstbithigh(((uint)(v1))))) : ((int)(WaveActiveBitOr(593076952u)))) | 1) == (-1)))) * 2)));
        }
    }
}
[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
    Out[tid * 3] = WaveGetLaneIndex();
    Out[tid * 3 + 1] = WaveGetLaneCount();
    Out[tid * 3 + 2] = WaveReadLaneFirst(tid);
    program22(tid);
}
