// seed: 102
// NVIDIA Vulkan driver 580.159.04 (H200): this dispatch never finishes; lavapipe, SwiftShader
// and Dawn run it at once. Cut down from seed 102, programs 6075-6099 (programs 6091 and
// 6096): either function alone runs. Wave operations in a branch condition and in a ?: inside
// a loop.
// expect: runs
StructuredBuffer<uint> In : register(t0);
RWStructuredBuffer<uint> Out : register(u1);
groupshared uint Shared[64];
void program16(uint tid) {
    int a1[8] = { ((int)(In[(tid) & 255])), ((int)(tid)), ((int)(In[(tid) & 255])), ((int)(tid)), ((int)(tid)), (0 ^ ((int)(tid))), ((int)(tid)), ((int)(tid)) };
    if ((max(((In[(tid) & 255] < In[(4294967295u) & 255]) ? In[(tid) & 255] : tid), ((uint)(countbits(tid)))) == (WaveActiveMin(((uint)(a1[(2147483649u) & 7]))) - ((uint)(WaveActiveBallot(WaveActiveAllEqual((-13))).x))))) {
    } else {
        for (int v3 = 0; v3 < 2; v3++) {
            uint v4 = ((uint)(a1[(In[(tid) & 255]) & 7]));
        }
    }
}
void program21(uint tid) {
    int v3 = 4;
    uint v4 = (((uint)(v3)) % (In[(tid) & 255] | 1u));
    int v6 = ((int)(v4));
    for (int v9 = 0; v9 < 2; v9++) {
        Out[10944 + tid * 8 + 0] = (uint)((mad((v6 % ((19 | 1) + (((int)(((19 | 1) == (-1)))) * 2))), ~(v6), v6) % ((((4294967248u < 3922958314u) ? ((int)(In[(33u) & 255])) : WaveReadLaneAt(((int)(In[(1u) & 255])), WaveActiveMax(WaveGetLaneIndex()))) | 1) + (((int)(((((4294967248u < 3922958314u) ? ((int)(In[(33u) & 255])) : WaveReadLaneAt(((int)(In[(1u) & 255])), WaveActiveMax(WaveGetLaneIndex()))) | 1) == (-1)))) * 2))));
    }
}
[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
    Out[tid * 3] = WaveGetLaneIndex();
    Out[tid * 3 + 1] = WaveGetLaneCount();
    Out[tid * 3 + 2] = WaveReadLaneFirst(tid);
    program16(tid);
    program21(tid);
}
