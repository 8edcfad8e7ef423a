#include "shadows.hlsli"
float Lambert(float3 n, float3 l) { return saturate(dot(n, l)); }
