#!/usr/bin/env bash
# The test command: installs the test dependencies, then checks formatting, lints, and runs
# every test of the workspace. Every check runs even when an earlier one fails, so one run
# shows all problems; the exit status is non-zero when any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-test-deps.sh

export RUST_BACKTRACE="${RUST_BACKTRACE:-1}"
failed=()

step() {
    echo "== $*"
    if ! "$@"; then
        failed+=("$*")
    fi
}

step cargo fmt --all --check
step cargo fmt --manifest-path examples/compact-wgpu/Cargo.toml --check
step cargo clippy --workspace --all-targets -- -D warnings
step cargo clippy --manifest-path examples/compact-wgpu/Cargo.toml --locked -- -D warnings
# Last, so that its summary closes the output.
# The fuzz targets are their own workspace (sanitizer flags need nightly), so the steps
# above never compile them: check that they still build against the crates' API.
step cargo fmt --manifest-path fuzz/Cargo.toml --check
step cargo check --manifest-path fuzz/Cargo.toml --bins
step cargo test --workspace

if ((${#failed[@]} > 0)); then
    printf 'scripts/test.sh: FAILED: %s\n' "${failed[@]}" >&2
    exit 1
fi
