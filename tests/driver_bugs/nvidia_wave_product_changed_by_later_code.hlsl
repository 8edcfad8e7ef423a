// seed: 106
// NVIDIA Vulkan driver 580.159.04 (H200): program5 writes WaveActiveProduct(~0 - 0) = 0xffffffff
// from lane 0 of each subgroup (the only lane in `if (WaveGetLaneIndex() ==
// WaveReadLaneFirst(0))`, in uniform control flow), but thread 0 writes 0 when program19 is
// called after it. program5 alone writes 0xffffffff on the H200 too. Cut down from seed 106,
// programs 4275-4299 (programs 4280 and 4294).
// expect: program5 thread 0 word 0 = 0xffffffff
// expect: program5 thread 32 word 0 = 0xffffffff
StructuredBuffer<uint> In : register(t0);
RWStructuredBuffer<uint> Out : register(u1);
groupshared uint Shared[64];
void program5(uint tid) {
    for (int v0 = 0; v0 < (404303979 & 3); v0++) {
        if (((((uint)(v0)) & 1u) != 0u)) {
            continue;
        }
        int v1 = (((int)(tid)) + (((-775263132) % ((v0 | 1) + (((int)(((v0 | 1) == (-1)))) * 2))) * ((int)(In[(tid) & 255]))));
    }
    Out[2752 + tid * 8 + 1] = (uint)((In[(In[(0u) & 255]) & 255] % (mad(tid, (In[(tid) & 255] & 31u), (tid << 1929342701u)) | 1u)));
    if (WaveActiveAllTrue((In[(0u) & 255] != reversebits(In[(tid) & 255])))) {
        if ((((int)(In[(tid) & 255])) >= ((21 | ((int)(In[(tid) & 255]))) ^ ((2147483648u <= In[(tid) & 255]) ? (-3) : (-2147483647))))) {
            int a0[4] = { (((int)(In[(tid) & 255])) % ((((int)(In[(tid) & 255])) | 1) + (((int)(((((int)(In[(tid) & 255])) | 1) == (-1)))) * 2))), ((int)(tid)), clamp(65535, min((-1), ((int)(In[(tid) & 255]))), max((-1), ((int)(In[(tid) & 255])))), (((-19) == ((int)(In[(In[(tid) & 255]) & 255]))) ? ((int)(In[(tid) & 255])) : 3) };
            uint v2 = (4294967294u >> ((uint)(a0[(In[(In[(tid) & 255]) & 255]) & 3])));
            uint v3 = 2147483649u;
        }
        int v4 = ((int)(WaveGetLaneCount()));
    }
    for (int v5 = 0; v5 < 1; v5++) {
        if (!((((uint)(WaveGetLaneIndex())) != WaveReadLaneFirst(((uint)(v5)))))) {
            int v6 = ((In[(tid) & 255] == ~(tid)) ? ((int)(tid)) : (v5 - ((int)(WaveActiveBallot((((uint)(v5)) > In[(tid) & 255])).x))));
            v6 = v5;
            Out[2752 + tid * 8 + 0] = (uint)(WaveActiveProduct((~(((uint)(v6))) - ((uint)(WaveGetLaneIndex())))));
            Out[2752 + tid * 8 + 2] = (uint)(clamp(~(clamp((-1), min(v6, 32), max(v6, 32))), min(((int)(In[(((uint)(v6))) & 255])), v6), max(((int)(In[(((uint)(v6))) & 255])), v6)));
        }
    }
    for (int v7 = 0; v7 < ((clamp(((int)(tid)), min(((int)(In[(In[(tid) & 255]) & 255])), ((int)(tid))), max(((int)(In[(In[(tid) & 255]) & 255])), ((int)(tid)))) - ((int)(In[(1180767694u) & 255]))) & 3); v7++) {
        int v8 = ((In[(3u) & 255] <= ((uint)(v7))) ? (v7 - (((int)(In[(tid) & 255])) + (-63))) : (-65536));
        uint v9 = 4294967295u;
        int v10 = (((int)(v9)) * ((((uint)(v7)) <= v9) ? ((int)(((tid & 2u) != 0u))) : ((int)(In[(tid) & 255]))));
    }
    Out[2752 + tid * 8 + 4] = (uint)(((In[(tid) & 255] & In[(tid) & 255]) + tid));
    Out[2752 + tid * 8 + 5] = (uint)(1u);
    Out[2752 + tid * 8 + 6] = (uint)((886156962u / ((tid << In[(tid) & 255]) | 1u)));
    Out[2752 + tid * 8 + 7] = (uint)((tid ^ ((2147483647u == 60u) ? tid : In[(tid) & 255])));
}
void program19(uint tid) {
    uint v0 = Shared[(WavePrefixSum((tid / (tid | 1u)))) & 63];
    uint a1[4] = { 4294967295u, tid, ((((int)(v0)) == (((int)(v0)) ^ ((int)(tid)))) ? v0 : In[(tid) & 255]), ((uint)(WaveActiveBallot(WaveIsFirstLane()).x)) };
    if (!(((((int)(tid)) + ((int)(In[(v0) & 255]))) >= ((int)(v0))))) {
        for (int v1 = 0; v1 < 3; v1++) {
            int v2 = ((int)(v0));
            Out[9920 + tid * 8 + 2] = (uint)(mad(a1[(((uint)(v2))) & 3], v0, 1447771149u));
        }
    } else {
        int a2[4] = { WaveActiveProduct(((int)(In[(tid) & 255]))), ((int)(a1[(2u) & 3])), ((int)(v0)), (((int)(In[(v0) & 255])) << ((int)(v0))) };
    }
}
[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
    Out[tid * 3] = WaveGetLaneIndex();
    Out[tid * 3 + 1] = WaveGetLaneCount();
    Out[tid * 3 + 2] = WaveReadLaneFirst(tid);
    program5(tid);
    program19(tid);
}
