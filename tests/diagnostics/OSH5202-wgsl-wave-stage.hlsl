[shader("vertex")]
float4 VSMain(uint vertex : SV_VertexID) : SV_Position {
    return float4(WaveActiveSum(vertex), 0, 0, 1);
}
