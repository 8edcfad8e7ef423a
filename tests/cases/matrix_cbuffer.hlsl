// Matrices in a cbuffer as D3D packs them: column_major by default (each column in
// a 16-byte row), row_major on request, a 3x4 whose last column leaves the row short;
// mul with the vector on either side, rows m[i], _m swizzles, transpose, determinant.
cbuffer Params : register(b0)
{
    float4x4 M;
    row_major float4x4 R;
    float3x4 N;
    float4 V;
    uint Row;
};
RWStructuredBuffer<float> Out : register(u1);

void put(inout uint at, float4 v)
{
    Out[at] = v.x; Out[at + 1] = v.y; Out[at + 2] = v.z; Out[at + 3] = v.w;
    at += 4;
}

[numthreads(1, 1, 1)]
void main()
{
    uint at = 0;
    put(at, mul(M, V));
    put(at, mul(V, M));
    put(at, mul(R, V));
    put(at, mul(V, R));
    put(at, float4(mul(N, V), 0));
    put(at, mul(V.xyz, N));
    put(at, M[Row]);
    put(at, R[Row]);
    put(at, float4(N[2].wzy, N._m12));
    put(at, float4(M._m01_m10, R._12_21));
    put(at, transpose(M)[1]);
    put(at, mul(M, R)[Row]);
    // A copy through mul keeps the MSL check (whose header lacks matrix copies out of
    // the constant address space) out of the way.
    float4x4 local = mul(M, float4x4(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    local[Row] = V;
    local._m33 = 9;
    put(at, local[Row] + local[3]);
    put(at, float4(determinant(M), determinant(R), M[Row][2], R[Row].y));
}
