[shader("pixel")]
float4 PSMain(float4 position : SV_Position) {
    return position / 1024;
}
