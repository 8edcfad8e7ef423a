// oneshader: -E main -T cs_6_0
// #line renumbers lines; __LINE__ expands to an integer; #pragma of other kinds
// is ignored; backslash-continued macro definitions.
#pragma warning(disable : 3571)
#pragma pack_matrix(column_major)
RWStructuredBuffer<uint> Out : register(u0);

#define WRITE_LINE(i) \
    Out[i] = __LINE__; \
    Out[i + 1] = __LINE__ + 1

#line 100
static const uint kLine = __LINE__;

[numthreads(1, 1, 1)]
void main()
{
#line 200 "renamed.hlsl"
    Out[0] = kLine;
    Out[1] = __LINE__;
    WRITE_LINE(2);
}
