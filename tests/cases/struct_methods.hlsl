// Member functions: fields by name and through `this`, a method calling a sibling
// method, methods that modify a local struct and an array element, overloads, a
// parameter shadowing a field, a method returning its struct, and a non-modifying
// method called on a read-only structured-buffer element.
struct Counter
{
    int total;
    uint steps;

    void Reset() { total = 0; steps = 0; }
    void Add(int v) { total += v; steps++; }
    void Add(int v, int times) { for (int i = 0; i < times; i++) Add(v); }
    void Set(int total) { this.total = total * 2; }
    int Mean() { return steps > 0 ? total / int(steps) : -1; }
    Counter Doubled() { Counter c = this; c.total *= 2; return c; }
};

StructuredBuffer<Counter> Input : register(t0);
RWStructuredBuffer<int4> Out : register(u1);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = int(id.x);
    Counter c;
    c.Reset();
    c.Add(x - 3);
    c.Add(5, x);
    Counter pair[2];
    pair[0].Reset();
    pair[1].Reset();
    pair[x & 1].Add(100, 2);
    Counter d = c.Doubled();
    Counter s;
    s.Set(x);
    int fromBuffer = Input[id.x].Mean();
    Out[id.x * 2] = int4(c.total, int(c.steps), c.Mean(), d.total);
    Out[id.x * 2 + 1] = int4(pair[0].total, pair[1].steps, s.total, fromBuffer);
}
