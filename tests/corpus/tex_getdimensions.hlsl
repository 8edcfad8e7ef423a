// oneshader: -E main -T cs_6_0
// GetDimensions on every texture shape, with and without a mip level, into uint and
// float outputs.
Texture1D<float4> T1 : register(t0);
Texture2D<float4> T2 : register(t2);
Texture2DArray<float4> T2A : register(t3);
Texture3D<float4> T3 : register(t4);
TextureCube<float4> TC : register(t5);
TextureCubeArray<float4> TCA : register(t6);
Texture2DMS<float4> TMS : register(t7);
RWTexture2D<float4> RW2 : register(u8);
RWTexture3D<float4> RW3 : register(u9);
RWTexture2DArray<float4> RW2A : register(u10);
RWStructuredBuffer<uint4> Out : register(u11);

[numthreads(1, 1, 1)]
void main()
{
    uint w, h, d, n, m, s;
    float fw, fh;
    T1.GetDimensions(w);
    Out[0] = uint4(w, 0, 0, 0);
    T1.GetDimensions(1, w, m);
    n = 0;
    Out[1] = uint4(w, m, n, 0);
    T2.GetDimensions(w, h);
    T2.GetDimensions(2, fw, fh, m);
    Out[2] = uint4(w, h, uint(fw + fh), m);
    T2A.GetDimensions(0, w, h, n, m);
    Out[3] = uint4(w, h, n, m);
    T3.GetDimensions(1, w, h, d, m);
    Out[4] = uint4(w, h, d, m);
    TC.GetDimensions(w, h);
    TCA.GetDimensions(0, w, h, n, m);
    Out[5] = uint4(w, h, n, m);
    TMS.GetDimensions(w, h, s);
    Out[6] = uint4(w, h, s, 0);
    RW2.GetDimensions(w, h);
    RW3.GetDimensions(w, h, d);
    RW2A.GetDimensions(fw, fh, n);
    Out[7] = uint4(w + fw, h + fh, d, n);
}
