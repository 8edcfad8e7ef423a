#!/usr/bin/env python3
"""Type-checks a corpus of MSL files against `metal_stdlib` and reports the
accept rate. Used to measure the header on naga's and Tint's MSL snapshots
(see docs/msl-check.md); nothing of those corpora is kept in this repository.

Usage: check_corpus.py [--log FILE] [--jobs N] PATH...

A PATH is an .msl file or a directory searched for *.msl. Tint's expectation
files that hold several entry points (sections headed `//\\n// name\\n//`) are
split, each section checked as its own translation unit; a file is accepted
when all its sections are. Files that start with `SKIP:` are Tint's records of
a failed or invalid generation and are counted apart, never checked.

The clang command line is the one `oneshader_harness::msl::check_msl` runs.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

MSL_DIR = os.path.dirname(os.path.abspath(__file__))
CLANG_FLAGS = [
    "-x", "clcpp", "-cl-std=clc++2021", "-cl-no-stdinc", "-cl-single-precision-constant", "-fsyntax-only",
    "-isystem", MSL_DIR,
    "-Werror", "-Wno-unknown-attributes", "-Wno-c++20-designator", "-Wno-array-bounds",
    "-ferror-limit=5",
]
SECTION = re.compile(r"^//\n// [\w.]+\n//\n", re.M)


def sections(text):
    """The translation units in one expectation file."""
    if not text.startswith("//\n// "):
        return [text]
    parts = SECTION.split(text)
    return [p for p in parts if p.strip()]


def check_source(source):
    """None when clang accepts `source`, else its first error line."""
    with tempfile.NamedTemporaryFile("w", suffix=".metal", delete=False) as f:
        f.write(source)
        path = f.name
    try:
        proc = subprocess.run(["clang++", *CLANG_FLAGS, path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if proc.returncode == 0:
        return None
    for line in proc.stderr.splitlines():
        if "error:" in line:
            return line.replace(path, "<src>")
    return proc.stderr.strip() or f"clang exited with {proc.returncode}"


def check_file(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if text.startswith("SKIP:"):
        return path, "skip"
    for src in sections(text):
        err = check_source(src)
        if err is not None:
            return path, err
    return path, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--log", help="write one line per rejected file here")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    files = []
    for p in args.paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files.extend(os.path.join(root, n) for n in names if n.endswith(".msl"))
        else:
            files.append(p)
    files.sort()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(check_file, files))
    skipped = [p for p, r in results if r == "skip"]
    rejected = [(p, r) for p, r in results if r not in (None, "skip")]
    checked = len(results) - len(skipped)
    accepted = checked - len(rejected)
    if args.log:
        with open(args.log, "w") as log:
            for p, r in rejected:
                log.write(f"{p}: {r}\n")
    rate = 100.0 * accepted / checked if checked else 0.0
    print(f"checked {checked} files ({len(skipped)} SKIP files left out): "
          f"accepted {accepted}, rejected {len(rejected)}, accept rate {rate:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
