// tbuffer and TextureBuffer<T>: cbuffer packing (16-byte rows) in a read-only storage
// buffer. Every word of a buffer holds its own index (TL: 100 + index), so each field
// read back is the word index where D3D's packing puts it.
struct Light
{
    float3 dir;
    float intensity;
    float2 uv;
};

tbuffer Material : register(t0)
{
    float4 BaseColor;      // 0
    float Roughness;       // 16
    float weights[3];      // 32, 48, 64: one row per element
    float after;           // 68: in the last row of weights
    row_major float2x3 rm; // 80: one row per matrix row
    uint ids[2];           // 112, 128
    float2x2 cm;           // 144: one row per column
    float3 v;              // 176: would cross the row at 168
    Light light;           // 192: a struct starts a row
    float tail;            // 216: in the last row of light
};

TextureBuffer<Light> TL : register(t1);
cbuffer Params : register(b2) { uint Base; };
RWStructuredBuffer<uint> Out : register(u3);

float IntensityOf(TextureBuffer<Light> b) { return b.intensity; }

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint t = id.x;
    uint o = t * 17;
    Light l = light;
    Light m = TL;
    Out[o + 0] = asuint(BaseColor.w);
    Out[o + 1] = asuint(Roughness);
    Out[o + 2] = asuint(weights[t]);
    Out[o + 3] = asuint(after);
    Out[o + 4] = asuint(rm[1][2]);
    Out[o + 5] = asuint(rm[0][1]);
    Out[o + 6] = ids[t];
    Out[o + 7] = asuint(cm[1][0]);
    Out[o + 8] = asuint(cm[0][1]);
    Out[o + 9] = asuint(v.z);
    Out[o + 10] = asuint(l.intensity);
    Out[o + 11] = asuint(light.uv.y);
    Out[o + 12] = asuint(tail);
    Out[o + 13] = asuint(IntensityOf(TL));
    Out[o + 14] = asuint(TL.uv.x);
    Out[o + 15] = asuint(m.dir.z);
    Out[o + 16] = Base + t;
}
