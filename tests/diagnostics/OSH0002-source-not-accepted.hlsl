// Tone mapping constants, saved in Latin-1 by an old editor: café au lait
[shader("pixel")]
float4 PSMain() : SV_Target { return 0; }
