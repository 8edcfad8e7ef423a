#!/usr/bin/env bash
# Runs one cargo-fuzz target for MINUTES minutes at the lowest CPU priority, on one
# core, with the corpus seeded from tests/ and the HLSL dictionary:
#   scripts/fuzz.sh TARGET MINUTES      (TARGET: lexer, preprocess, parse, compile)
# Crashes land in fuzz/artifacts/TARGET/; the summary line (executions, coverage) is
# the last "#N DONE" line of fuzz/logs/TARGET.log. Needs `cargo install cargo-fuzz`.
# The sanitizer flags need nightly: on a stable toolchain RUSTC_BOOTSTRAP=1 allows them.
set -euo pipefail
target="${1:?usage: scripts/fuzz.sh TARGET MINUTES}"
minutes="${2:?usage: scripts/fuzz.sh TARGET MINUTES}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz"
[ -d "corpus/$target" ] || ./seed-corpus.sh
mkdir -p logs
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/fuzz/target}"
nice -n 19 cargo fuzz run "$target" "corpus/$target" -- \
    -dict=dict/hlsl.dict -max_total_time=$((minutes * 60)) -max_len=65536 \
    -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 2>&1 | tee "logs/$target.log" | grep -E "^#[0-9]+ +(DONE|NEW)|ERROR|SUMMARY|panicked|overflow" | tail -n 40
