// oneshader: -E main -T cs_6_0
// Structs with member functions that read and write fields, call each other and
// return structs; nested structs; structs as parameters and return values.
struct Ray
{
    float3 origin;
    float3 dir;
    float3 At(float t) { return origin + dir * t; }
};

struct Sphere
{
    float3 center;
    float radius;
    bool Hit(Ray r, out float t)
    {
        float3 oc = r.origin - center;
        float b = dot(oc, r.dir);
        float c = dot(oc, oc) - radius * radius;
        float disc = b * b - c;
        t = -b - sqrt(max(disc, 0));
        return disc >= 0 && t > 0;
    }
};

struct Accumulator
{
    float3 sum;
    uint count;
    void Reset() { sum = 0; count = 0; }
    void Add(float3 v) { sum += v; count++; }
    float3 Mean() { return count > 0 ? sum / count : float3(0, 0, 0); }
};

struct Scene { Sphere spheres[2]; float3 sky; };

Ray MakeRay(uint2 pixel)
{
    Ray r;
    r.origin = float3(0, 0, -3);
    r.dir = normalize(float3((pixel - 4.0) / 8.0, 1));
    return r;
}

RWStructuredBuffer<float4> Out : register(u0);

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Scene scene;
    scene.spheres[0].center = float3(0, 0, 0);
    scene.spheres[0].radius = 1;
    scene.spheres[1].center = float3(1, 1, 1);
    scene.spheres[1].radius = 0.5;
    scene.sky = float3(0.5, 0.7, 1.0);
    Ray ray = MakeRay(id.xy);
    Accumulator acc;
    acc.Reset();
    for (uint i = 0; i < 2; i++) {
        float t;
        if (scene.spheres[i].Hit(ray, t))
            acc.Add(normalize(ray.At(t) - scene.spheres[i].center));
    }
    float3 color = acc.count > 0 ? acc.Mean() * 0.5 + 0.5 : scene.sky;
    Out[id.y * 8 + id.x] = float4(color, 1);
}
