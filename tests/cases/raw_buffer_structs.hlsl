// Load<T> and Store<T> of structs from byte-address buffers: members tightly packed
// (a float3 right after a float, a struct right after an int array), arrays element
// after element, a float2x2 column-major, a bool as a 0/1 word (any non-zero reads true).
struct Inner
{
    float2 uv;
    uint flag;
};

struct Record
{
    float a;
    float3 b;
    int c[2];
    Inner inner;
    float2x2 m;
    bool yes;
};

ByteAddressBuffer Input : register(t0);
RWByteAddressBuffer Output : register(u1);

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint base = id.x * 56;
    Record r = Input.Load<Record>(base);
    Record o;
    o.a = r.m[0][1] + r.a;
    o.b = r.b.zyx;
    o.c[0] = r.c[0] + r.c[1];
    o.c[1] = -r.c[1];
    o.inner.uv = r.inner.uv * 2.0f;
    o.inner.flag = r.inner.flag ^ 0xFFu;
    o.m = r.m;
    o.m[1][0] = r.b.x;
    o.yes = !r.yes;
    Output.Store<Record>(base, o);
    // A member struct loaded on its own, at its byte offset (word 6).
    Inner inner = Input.Load<Inner>(base + 24);
    Output.Store(112 + id.x * 12, inner);
}
