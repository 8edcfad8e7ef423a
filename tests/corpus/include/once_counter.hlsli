#pragma once
// Included twice by pp_include_once.hlsl: #pragma once keeps the second inclusion empty,
// so the function below is defined once.
uint OnceCounterValue() { return 7u; }
