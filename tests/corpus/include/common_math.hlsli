#ifndef COMMON_MATH_HLSLI
#define COMMON_MATH_HLSLI

static const float PI = 3.14159265358979;
static const float TWO_PI = 2.0 * PI;
static const float INV_PI = 1.0 / PI;

#define SQR(x) ((x) * (x))
#define LUMA_WEIGHTS float3(0.2126, 0.7152, 0.0722)

float Luminance(float3 c) { return dot(c, LUMA_WEIGHTS); }

float3 SrgbToLinear(float3 c)
{
    float3 lo = c / 12.92;
    float3 hi = pow((c + 0.055) / 1.055, 2.4);
    return select(c <= 0.04045, lo, hi);
}

#endif // COMMON_MATH_HLSLI
