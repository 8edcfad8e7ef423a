#ifndef BINDINGS_HLSLI
#define BINDINGS_HLSLI
#define REG(kind, n) register(kind##n)
#define DECLARE_RW(type, name, n) RWStructuredBuffer<type> name : REG(u, n)
#define DECLARE_RO(type, name, n) StructuredBuffer<type> name : REG(t, n)
#endif
