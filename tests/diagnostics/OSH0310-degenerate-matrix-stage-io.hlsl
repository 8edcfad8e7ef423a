// options: -T vs_6_0 -E main
// Stage inputs and outputs refuse 1xN and Nx1 matrices: D3D gives each row a register.
float4 main(float4x1 position : POSITION) : SV_Position {
    return float4(position[0], position[1], position[2], 1);
}
