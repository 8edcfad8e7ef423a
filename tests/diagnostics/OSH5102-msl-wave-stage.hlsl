[shader("vertex")]
float4 VSMain(uint vertex : SV_VertexID) : SV_Position {
    return float4(WaveGetLaneIndex(), vertex, 0, 1);
}
