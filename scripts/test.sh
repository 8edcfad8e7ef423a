#!/usr/bin/env bash
# The test command: installs the test dependencies, then checks formatting, lints, and runs
# every test of the workspace. Run from anywhere; exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-test-deps.sh

export RUST_BACKTRACE="${RUST_BACKTRACE:-1}"

echo "== cargo fmt --all --check"
cargo fmt --all --check

echo "== cargo clippy --workspace --all-targets -- -D warnings"
cargo clippy --workspace --all-targets -- -D warnings

# Last, so that its summary closes the output.
echo "== cargo test --workspace"
cargo test --workspace
