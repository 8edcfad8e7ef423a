#!/usr/bin/env bash
# Installs everything oneshader's tests need, on Debian 12 as root, and checks it afterwards.
# Safe to run again: what is already there is left alone.
#
#   spirv-tools          spirv-val, which validates the SPIR-V output
#   mesa-vulkan-drivers  lavapipe, a CPU Vulkan driver (subgroup size 8)
#   chromium             ships SwiftShader, a CPU Vulkan driver (subgroup size 4), used by Dawn
#   clang                type-checks the MSL output
#   libvulkan1           the Vulkan loader
#   vulkan-tools         vulkaninfo, for looking at the drivers by hand
#   vulkan-validationlayers  the Khronos validation layer: rejects a pipeline whose descriptor
#                        set layouts do not match the SPIR-V (check_compute_pipeline_layout)
#   nodejs, npm          only where `node` is missing: runs Dawn (npm package `webgpu`)
#   Mesa 25's lavapipe   from bookworm-backports into /opt/oneshader/mesa25, beside the system's
#                        Mesa: Dawn's second driver (subgroup size 8), see install-mesa25-lavapipe.sh
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
NODE_DIR="$ROOT/crates/oneshader-harness/node"
LAVAPIPE_ICD="/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json"
SWIFTSHADER_ICD="/usr/lib/chromium/vk_swiftshader_icd.json"
SWIFTSHADER_LIB="/usr/lib/chromium/libvk_swiftshader.so"

log() { echo "install-test-deps: $*"; }
fail() {
    echo "install-test-deps: ERROR: $*" >&2
    exit 1
}

packages=(spirv-tools mesa-vulkan-drivers chromium clang libvulkan1 vulkan-tools vulkan-validationlayers)
if ! command -v node >/dev/null 2>&1; then
    packages+=(nodejs npm)
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if ((${#missing[@]} > 0)); then
    log "installing ${missing[*]}"
    if [[ $(id -u) -ne 0 ]]; then
        fail "packages ${missing[*]} are missing and installing them needs root"
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends "${packages[@]}"
else
    log "Debian packages already installed"
fi

command -v npm >/dev/null 2>&1 || fail "node is installed but npm is not; install npm"

# npm ci is skipped when node_modules already holds exactly what package-lock.json names.
stamp="$NODE_DIR/node_modules/.oneshader-installed-lock.json"
if [[ -f "$stamp" ]] && cmp -s "$stamp" "$NODE_DIR/package-lock.json"; then
    log "npm packages already installed"
else
    log "npm ci in $NODE_DIR"
    (cd "$NODE_DIR" && npm ci --no-audit --no-fund)
    cp "$NODE_DIR/package-lock.json" "$stamp"
fi

[[ $(id -u) -eq 0 || -f /opt/oneshader/mesa25/lvp_icd.json ]] ||
    fail "Mesa 25's lavapipe is missing and installing it needs root"
if [[ $(id -u) -eq 0 ]]; then
    "$ROOT/scripts/install-mesa25-lavapipe.sh"
fi

# The SARIF 2.1.0 schema (npm @microsoft/jest-sarif) and ajv, for the SARIF output's tests.
[[ -f "$ROOT/crates/oneshader/tests/sarif/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json" ]] || (cd "$ROOT/crates/oneshader/tests/sarif" && npm ci --no-audit --no-fund --ignore-scripts)

# What the tests use, checked one by one.
command -v spirv-val >/dev/null 2>&1 || fail "spirv-val is missing (package spirv-tools)"
command -v clang++ >/dev/null 2>&1 || fail "clang++ is missing (package clang)"
command -v vulkaninfo >/dev/null 2>&1 || fail "vulkaninfo is missing (package vulkan-tools)"
[[ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ]] || fail "the Vulkan validation layer is missing (package vulkan-validationlayers)"
[[ -f "$LAVAPIPE_ICD" ]] || fail "lavapipe's ICD $LAVAPIPE_ICD is missing (package mesa-vulkan-drivers)"
lavapipe_lib="$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$LAVAPIPE_ICD")"
[[ -f "$lavapipe_lib" ]] || fail "lavapipe's library '$lavapipe_lib' is missing"
[[ -f "$SWIFTSHADER_ICD" ]] || fail "SwiftShader's ICD $SWIFTSHADER_ICD is missing (package chromium)"
[[ -f "$SWIFTSHADER_LIB" ]] || fail "SwiftShader's library $SWIFTSHADER_LIB is missing (package chromium)"
command -v node >/dev/null 2>&1 || fail "node is missing (package nodejs)"

# Dawn must load and find SwiftShader and Mesa 25's lavapipe: the WebGPU tests run exactly so.
dawn_log="$(mktemp)"
trap 'rm -f "$dawn_log"' EXIT
check_dawn() { # <driver name> <ICD manifest> <LD_LIBRARY_PATH>
    if ! (
        cd "$NODE_DIR"
        DRIVER="$1" VK_ICD_FILENAMES="$2" VK_DRIVER_FILES="$2" LD_LIBRARY_PATH="$3" timeout 60 node \
            --input-type=module -e "
            import { create, globals } from 'webgpu';
            Object.assign(globalThis, globals);
            const gpu = create(['backend=vulkan']);
            const adapter = await gpu.requestAdapter();
            if (!adapter) { console.error('Dawn found no adapter on ' + process.env.DRIVER); process.exit(1); }
            process.exit(0);
        " >"$dawn_log" 2>&1
    ); then
        cat "$dawn_log" >&2
        fail "node could not load the npm package webgpu (Dawn) or found no $1 adapter"
    fi
}
check_dawn SwiftShader "$SWIFTSHADER_ICD" "${LD_LIBRARY_PATH:-}"
check_dawn "Mesa 25's lavapipe" /opt/oneshader/mesa25/lvp_icd.json /opt/oneshader/mesa25/lib

log "all test dependencies are in place"
