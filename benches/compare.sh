#!/usr/bin/env bash
# Whole-process comparison of oneshader with glslang (docs/performance.md).
#
#   benches/compare.sh [RUNS]
#
# - `oneshader compile X.hlsl --target spirv,msl,wgsl -o DIR` (release build) against
#   `glslangValidator -D -V` writing SPIR-V alone, for shaders/Compact.hlsl and
#   shaders/Kernels.hlsl, timed with hyperfine (`-N`, no shell), printed as a ratio table.
#   glslang compiles one entry point a run, so for the kernel set its time is the sum of one
#   run per entry point, while one oneshader run compiles every entry point to all three
#   targets;
# - the SPIR-V size of each entry point, ours against glslang's;
# - the scaling table: generated shaders of 1k, 10k and 100k lines
#   (oneshader_harness::generated_shader), µs per line and peak RSS (/usr/bin/time -v).
#
# Needs hyperfine, glslang-tools and python3 (Debian packages), and a Rust toolchain.
# Set CARGO_TARGET_DIR as for any build; the outputs go to a temporary folder.
set -euo pipefail

runs=${1:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for tool in hyperfine glslangValidator python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || {
        echo "compare.sh: $tool is missing (apt-get install hyperfine glslang-tools python3 time)" >&2
        exit 1
    }
done

cd "$root"
cargo build --release -q -p oneshader-cli
cargo build --release -q -p oneshader-harness --example generate_shader
cargo build --release -q -p oneshader --example in_process
oneshader=$target_dir/release/oneshader
generate=$target_dir/release/examples/generate_shader
in_process=$target_dir/release/examples/in_process

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "oneshader $(git -C "$root" rev-parse --short HEAD), $(glslangValidator --version | head -1)"
echo

# The entry points of an HLSL file: the functions after a [numthreads(...)] attribute.
entry_points() {
    python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
print(" ".join(re.findall(r"\[numthreads\([^)]*\)\]\s*(?:\[[^\]]*\]\s*)*void\s+(\w+)", text)))
PY
}

# The mean wall time in seconds of a hyperfine JSON export.
mean_of() {
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["mean"])' "$1"
}

# The mean CPU time (user + system) in seconds of a hyperfine JSON export: on a loaded
# machine closer to the work done than the wall time, which includes waiting for a CPU.
cpu_of() {
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(r["user"] + r["system"])' "$1"
}

# The instructions a command executes (valgrind's callgrind): a count that, unlike time, does
# not depend on the machine's load. Prints 0 where valgrind is missing.
instructions() {
    if command -v valgrind >/dev/null; then
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
            sed -n 's/.*Collected : //p'
    else
        echo 0
    fi
}

glslang() { # FILE ENTRY OUT
    echo glslangValidator -D -V --target-env vulkan1.1 -S comp -e "$2" "$1" -o "$3"
}

echo "## Whole process: oneshader (SPIR-V + MSL + WGSL) vs glslangValidator (SPIR-V)"
echo
rows=()
sizes=()
for shader in shaders/Compact.hlsl shaders/Kernels.hlsl; do
    name=$(basename "$shader" .hlsl)
    out=$work/$name
    mkdir -p "$out"
    hyperfine -N -w 3 -r "$runs" --export-json "$work/$name.ours.json" \
        "$oneshader compile $shader --target spirv,msl,wgsl -o $out" >/dev/null
    ours=$(mean_of "$work/$name.ours.json")
    ours_cpu=$(cpu_of "$work/$name.ours.json")
    ours_ir=$(instructions $oneshader compile $shader --target spirv,msl,wgsl -o $out)
    theirs=0
    theirs_cpu=0
    theirs_ir=0
    entries=$(entry_points "$shader")
    for entry in $entries; do
        spv=$work/$name.$entry.glslang.spv
        $(glslang "$shader" "$entry" "$spv") >/dev/null
        hyperfine -N -w 3 -r "$runs" --export-json "$work/$name.$entry.glslang.json" \
            "$(glslang "$shader" "$entry" "$spv")" >/dev/null
        theirs=$(python3 -c "print($theirs + $(mean_of "$work/$name.$entry.glslang.json"))")
        theirs_cpu=$(python3 -c "print($theirs_cpu + $(cpu_of "$work/$name.$entry.glslang.json"))")
        theirs_ir=$((theirs_ir + $(instructions $(glslang "$shader" "$entry" "$spv"))))
        # One entry point is written as NAME.spv, several as NAME.ENTRY.spv.
        ours_spv=$out/$name.$entry.spv
        [[ -f $ours_spv ]] || ours_spv=$out/$name.spv
        ours_size=$(stat -c %s "$ours_spv")
        their_size=$(stat -c %s "$spv")
        sizes+=("| $name | $entry | $ours_size | $their_size | $(python3 -c "print(f'{$ours_size / $their_size:.2f}')") |")
    done
    count=$(echo "$entries" | wc -w)
    rows+=("| $name ($(wc -l <"$shader") lines, $count entry points) | $(python3 -c "print(f'{$ours * 1e3:.2f}')") | $(python3 -c "print(f'{$theirs * 1e3:.2f}')") | $(python3 -c "print(f'{$theirs / $ours:.1f}x')") | $(python3 -c "print(f'{$ours_cpu * 1e3:.2f}')") | $(python3 -c "print(f'{$theirs_cpu * 1e3:.2f}')") | $(python3 -c "print(f'{$theirs_cpu / $ours_cpu:.1f}x')") | $(python3 -c "print(f'{$ours_ir / 1e6:.2f}')") | $(python3 -c "print(f'{$theirs_ir / 1e6:.2f}')") | $(python3 -c "print(f'{$theirs_ir / max($ours_ir, 1):.1f}x')") |")
done
echo "| shader | oneshader, 3 targets: wall (ms) | glslang, SPIR-V: wall (ms) | wall ratio | oneshader CPU (ms) | glslang CPU (ms) | CPU ratio | oneshader (M instr.) | glslang (M instr.) | instr. ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "## SPIR-V size (bytes, both with debug names)"
echo
echo "| shader | entry point | oneshader | glslang | ratio |"
echo "|---|---|---|---|---|"
printf '%s\n' "${sizes[@]}"
echo

echo "## In process: oneshader (HLSL to 3 targets) vs naga 30 (our WGSL: parse, validate, SPIR-V + MSL)"
echo
echo "Instructions of the compilation alone (callgrind, --toggle-collect), load-independent."
echo
echo "| shader | oneshader (M instr.) | naga (M instr.) | naga / oneshader |"
echo "|---|---|---|---|"
for shader in shaders/Compact.hlsl shaders/Kernels.hlsl; do
    if ! command -v valgrind >/dev/null; then
        echo "| $shader | valgrind missing | | |"
        continue
    fi
    counts=()
    for which in oneshader naga; do
        # A run that fails (naga rejecting its input, say) would count only the work up to
        # the failure: stop with its message instead.
        if ! valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*measured_*' \
            "$in_process" "$which" "$shader" >/dev/null 2>"$work/in_process.log"; then
            echo "compare.sh: in_process $which $shader failed:" >&2
            grep -v '^==' "$work/in_process.log" >&2
            exit 1
        fi
        counts+=("$(sed -n 's/.*Collected : //p' "$work/in_process.log")")
    done
    echo "| $(basename "$shader") | $(python3 -c "print(f'{${counts[0]} / 1e6:.2f}')") | $(python3 -c "print(f'{${counts[1]} / 1e6:.2f}')") | $(python3 -c "print(f'{${counts[1]} / ${counts[0]}:.1f}x')") |"
done
echo

echo "## Scaling: generated shaders, oneshader, 3 targets"
echo
echo "| lines | wall (ms) | wall µs per line | CPU µs per line | instructions per line | peak RSS (MB) |"
echo "|---|---|---|---|---|---|"
for lines in 1000 10000 100000; do
    shader=$work/generated_$lines.hlsl
    "$generate" "$lines" "$shader"
    actual=$(wc -l <"$shader")
    out=$work/generated_$lines
    mkdir -p "$out"
    scaling_runs=$(( lines >= 100000 ? 5 : 10 ))
    hyperfine -N -w 1 -r "$scaling_runs" --export-json "$work/gen$lines.json" \
        "$oneshader compile $shader --target spirv,msl,wgsl -o $out" >/dev/null
    mean=$(mean_of "$work/gen$lines.json")
    cpu=$(cpu_of "$work/gen$lines.json")
    # valgrind runs ~50 times slower: count instructions up to 10k lines unless told more.
    if (( lines <= ${COMPARE_INSTRUCTIONS_MAX_LINES:-10000} )); then
        ir=$(instructions "$oneshader" compile "$shader" --target spirv,msl,wgsl -o "$out")
    else
        ir=nan
    fi
    rss_kb=$(/usr/bin/time -v "$oneshader" compile "$shader" --target spirv,msl,wgsl -o "$out" 2>&1 >/dev/null |
        sed -n 's/.*Maximum resident set size (kbytes): //p')
    echo "| $actual | $(python3 -c "print(f'{$mean * 1e3:.1f}')") | $(python3 -c "print(f'{$mean * 1e6 / $actual:.2f}')") | $(python3 -c "print(f'{$cpu * 1e6 / $actual:.2f}')") | $(python3 -c "print(f'{float(\"$ir\") / $actual:.0f}')") | $(python3 -c "print(f'{$rss_kb / 1024:.1f}')") |"
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
