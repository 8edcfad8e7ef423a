#!/usr/bin/env bash
# Seeds fuzz/corpus/TARGET/ for every target with the .hlsl and .hlsli files of tests/
# and shaders/ (the corpus itself is git-ignored: it grows while fuzzing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
for target in lexer preprocess parse compile; do
    mkdir -p "$root/fuzz/corpus/$target"
    find "$root/tests" "$root/shaders" -type f \( -name '*.hlsl' -o -name '*.hlsli' \) -size -64k -print0 |
        while IFS= read -r -d '' file; do
            cp "$file" "$root/fuzz/corpus/$target/$(sha1sum "$file" | cut -c1-16).hlsl"
        done
done
echo "seeded $(ls "$root/fuzz/corpus/compile" | wc -l) inputs per target"
