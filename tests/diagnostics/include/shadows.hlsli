#include "lighting.hlsli"
float ShadowFactor(float depth) { return depth < 0.5 ? 0.25 : 1.0; }
