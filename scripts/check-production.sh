#!/usr/bin/env bash
# Compiles the production shaders of issue 3, unedited, with the `oneshader` CLI to SPIR-V,
# MSL and WGSL, and validates every output: spirv-val --target-env vulkan1.2 (from PATH),
# Tint (Dawn's createShaderModule + getCompilationInfo) and the MSL check (clang against the
# harness's metal_stdlib), through `cargo run -p oneshader-harness --example validate`.
#
# It fetches nothing (CI has no GitHub access). Give it the two checkouts:
#
#   scripts/check-production.sh PARALLELSORT_DIR DX_SAMPLES_DIR
#
# or set ONESHADER_PARALLELSORT_DIR and ONESHADER_DX_SAMPLES_DIR. PARALLELSORT_DIR is a
# checkout of GPUOpen-Effects/FidelityFX-ParallelSort; DX_SAMPLES_DIR is a checkout of
# microsoft/DirectX-Graphics-Samples (only Samples/Desktop/D3D12SM6WaveIntrinsics/src is
# read). Outputs go to ONESHADER_PRODUCTION_OUT (default: a temporary directory).
#
# What is compiled, with the flags the samples' host code and build files pass:
# - ParallelSortCS.hlsl, every entry point (FPS_Count, FPS_CountReduce, FPS_Scan,
#   FPS_ScanAdd, FPS_Scatter, FPS_SetupIndirectParameters), -T cs_6_0, as the DX12 host
#   compiles them: no defines, and FPS_Scatter again with -D kRS_ValueCopy=1; and every
#   entry point again with -D VK_Const=1, as the Vulkan host (sample/src/VK/ParallelSort.cpp)
#   compiles them: the root constants become a [[vk::push_constant]] struct.
#   The shader includes "FFX-ParallelSort/FFX_ParallelSort.h" while the repository's
#   folder is ffx-parallelsort (the sample is built on Windows, whose file names ignore
#   case), so the script makes an include directory with a link of that name.
# - ParallelSortVerify.hlsl: FullscreenVS (-T vs_6_0), RenderSortValidationPS (-T ps_6_0).
# - wave.hlsl and magnify.hlsl: VSMain (-T vs_6_0), PSMain (-T ps_6_0). magnify.hlsl binds
#   b0, t0, t1 and s0, which share Vulkan bindings 0 and 1; as with DXC's -spirv, the
#   t and s registers are shifted with -fvk-t-shift 1 0 -fvk-s-shift 3 0.
#
# Exit status 0 when everything compiled and every output passed every validator.
set -euo pipefail
cd "$(dirname "$0")/.."

ps_dir="${1:-${ONESHADER_PARALLELSORT_DIR:-}}"
dx_dir="${2:-${ONESHADER_DX_SAMPLES_DIR:-}}"
if [[ -z "$ps_dir" || -z "$dx_dir" ]]; then
    echo "usage: scripts/check-production.sh PARALLELSORT_DIR DX_SAMPLES_DIR" >&2
    echo "   (or set ONESHADER_PARALLELSORT_DIR and ONESHADER_DX_SAMPLES_DIR)" >&2
    exit 2
fi
ps_dir="$(cd "$ps_dir" && pwd)"
dx_dir="$(cd "$dx_dir" && pwd)"
ps_shaders="$ps_dir/sample/src/Common/shaders"
wave_dir="$dx_dir/Samples/Desktop/D3D12SM6WaveIntrinsics/src"
for f in "$ps_dir/ffx-parallelsort/FFX_ParallelSort.h" "$ps_shaders/ParallelSortCS.hlsl" \
    "$ps_shaders/ParallelSortVerify.hlsl" "$wave_dir/wave.hlsl" "$wave_dir/magnify.hlsl"; do
    if [[ ! -f "$f" ]]; then
        echo "check-production: missing $f" >&2
        exit 2
    fi
done

out="${ONESHADER_PRODUCTION_OUT:-$(mktemp -d)}"
mkdir -p "$out"
include="$out/include"
mkdir -p "$include"
ln -sfn "$ps_dir/ffx-parallelsort" "$include/FFX-ParallelSort"

revision() {
    git -C "$1" rev-parse HEAD 2>/dev/null || echo "(not a git checkout)"
}
echo "FidelityFX-ParallelSort: $ps_dir @ $(revision "$ps_dir")"
echo "DirectX-Graphics-Samples: $dx_dir @ $(revision "$dx_dir")"

cargo build -q -p oneshader-cli
cargo build -q -p oneshader-harness --example validate

failed=()
# compile NAME FILE ARGS...: compiles FILE into $out/NAME with the CLI.
compile() {
    local name="$1" file="$2"
    shift 2
    echo "== $name: oneshader compile $(basename "$file") $*"
    if ! cargo run -q -p oneshader-cli -- compile "$file" -o "$out/$name" "$@"; then
        failed+=("compile $name")
    fi
}

compile ParallelSortCS "$ps_shaders/ParallelSortCS.hlsl" -T cs_6_0 -I "$include"
compile ParallelSortCS-ValueCopy "$ps_shaders/ParallelSortCS.hlsl" -T cs_6_0 -I "$include" \
    -E FPS_Scatter -D kRS_ValueCopy=1
compile ParallelSortCS-VK "$ps_shaders/ParallelSortCS.hlsl" -T cs_6_0 -I "$include" -D VK_Const=1
compile ParallelSortCS-VK-ValueCopy "$ps_shaders/ParallelSortCS.hlsl" -T cs_6_0 -I "$include" \
    -E FPS_Scatter -D VK_Const=1 -D kRS_ValueCopy=1
compile ParallelSortVerify-VS "$ps_shaders/ParallelSortVerify.hlsl" -T vs_6_0 -E FullscreenVS
compile ParallelSortVerify-PS "$ps_shaders/ParallelSortVerify.hlsl" -T ps_6_0 \
    -E RenderSortValidationPS
compile wave-VS "$wave_dir/wave.hlsl" -T vs_6_0 -E VSMain
compile wave-PS "$wave_dir/wave.hlsl" -T ps_6_0 -E PSMain
compile magnify-VS "$wave_dir/magnify.hlsl" -T vs_6_0 -E VSMain -fvk-t-shift 1 0 -fvk-s-shift 3 0
compile magnify-PS "$wave_dir/magnify.hlsl" -T ps_6_0 -E PSMain -fvk-t-shift 1 0 -fvk-s-shift 3 0

mapfile -t outputs < <(find "$out" -type f \( -name '*.spv' -o -name '*.metal' -o -name '*.wgsl' \) | sort)
echo "== validating ${#outputs[@]} outputs"
if ((${#outputs[@]} == 0)) || ! cargo run -q -p oneshader-harness --example validate -- "${outputs[@]}"; then
    failed+=("validation")
fi

if ((${#failed[@]} > 0)); then
    printf 'check-production: FAILED: %s\n' "${failed[@]}" >&2
    exit 1
fi
echo "check-production: every entry point compiled to SPIR-V, MSL and WGSL; every output validated"
