// Structured-buffer counters: Append of the even inputs, IncrementCounter handing out
// slots, DecrementCounter counting down from the host's initial value, Consume taking
// what the host put in, and GetDimensions on an append buffer. Each counter is its own
// resource (counter.var.NAME) that the test binds, initialises and reads back; Slots's is at
// the binding its [[vk::counter_binding(12)]] gives.
StructuredBuffer<uint> In : register(t0);
AppendStructuredBuffer<uint> Evens : register(u1);
[[vk::counter_binding(12)]] RWStructuredBuffer<uint> Slots : register(u2);
RWStructuredBuffer<uint> Down : register(u3);
ConsumeStructuredBuffer<uint> Pending : register(u4);
RWStructuredBuffer<uint> Consumed : register(u5);
StructuredBuffer<uint> Limit : register(t6);
RWStructuredBuffer<uint> Dims : register(u7);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint v = In[id.x];
    if ((v & 1u) == 0u)
    {
        Evens.Append(v);
    }
    uint slot = Slots.IncrementCounter();
    Slots[slot] = id.x;
    uint after = Down.DecrementCounter();
    Down[after] = id.x;
    if (id.x < Limit[0])
    {
        Consumed[id.x] = Pending.Consume();
    }
    if (id.x == 0)
    {
        uint count, stride;
        Evens.GetDimensions(count, stride);
        Dims[0] = count * 100u + stride;
    }
}
