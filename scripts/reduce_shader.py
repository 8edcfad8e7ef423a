#!/usr/bin/env python3
"""Cuts a saved shader down statement by statement (whole blocks first) while the device still
fails it, after dropping the programs `main` no longer calls.

Usage: reduce_shader.py SEED FILE NAME
Environment: ONESHADER_GENERATED_BIN (the generated test binary), BUDGET (seconds, default
150); the failure is a dispatch that does not finish (ONESHADER_FENCE_TIMEOUT_S=2), or, with
CHECK (a line of the saved_shaders output that must appear), its absence; FIXED=programK keeps
that program's statements (the one whose words CHECK reads). Writes the smallest failing shader
to $OUT/NAME.hlsl ($OUT or /tmp)."""
import os, re, subprocess, sys, time

# The generated test binary (cargo test -p oneshader-e2e --test generated --no-run prints it).
BIN = os.environ["ONESHADER_GENERATED_BIN"]

seed, path, name = sys.argv[1], sys.argv[2], sys.argv[3]
start = time.time()
budget = float(os.environ.get("BUDGET", "150"))
check = os.environ.get("CHECK")
tries = 0

def fails(text):
    global tries
    tries += 1
    f = "/tmp/reduce-%s-%d.hlsl" % (name, tries)
    open(f, "w").write(text)
    env = dict(os.environ, ONESHADER_GENERATED_RUN=f, ONESHADER_GENERATED_SEED=seed,
               ONESHADER_GENERATED_TARGETS="spirv", ONESHADER_FENCE_TIMEOUT_S="2")
    t = time.time()
    out = ""
    proc = subprocess.Popen([BIN, "saved_shaders", "--exact", "--nocapture"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        out += line
        if "does not run" in line or time.time() - t > 30:
            break
    proc.kill()
    if "panicked" in out and "does not run" not in out:
        return False  # does not compile: not a smaller failure
    if check is not None:
        return "does not run" not in out and "program" in out and check not in out
    return "does not run" in out

def called(text):
    return set(re.findall(r"^\s*(program\d+)\(tid\);", text, re.M))

def drop_uncalled(text):
    keep = called(text)
    out, skipping = [], False
    for line in text.split("\n"):
        m = re.match(r"^void (program\d+)\(uint tid\) \{", line)
        if m:
            skipping = m.group(1) not in keep
        if not skipping:
            out.append(line)
        if skipping and line == "}":
            skipping = False
    return "\n".join(out)

FIXED = os.environ.get("FIXED", "")

def units(lines):
    """(first, last) line ranges that may go: blocks, then single statements."""
    blocks, singles = [], []
    inside = False
    for i, line in enumerate(lines):
        m = re.match(r"^void (program\d+)\(uint tid\) \{", line)
        if m:
            inside = m.group(1) != FIXED; continue
        if line == "}":
            inside = False; continue
        if not inside:
            continue
        s = line.strip()
        if s.endswith("{") and not s.startswith("}"):
            depth = 0
            for j in range(i, len(lines)):
                depth += lines[j].count("{") - lines[j].count("}")
                if depth == 0:
                    blocks.append((i, j)); break
        elif s.endswith(";") and "{" not in s and "}" not in s and not s.startswith("break"):
            singles.append((i, i))
    blocks.sort(key=lambda r: r[0] - r[1])
    return blocks + singles

text = open(path).read()
if not fails(text):
    print("%s: does not fail at first" % name); sys.exit(0)
smaller = drop_uncalled(text)
if smaller != text and fails(smaller):
    text = smaller
    print("dropped the uncalled programs", flush=True)
progress = True
while progress and time.time() - start < budget:
    progress = False
    lines = text.split("\n")
    for first, last in units(lines):
        if time.time() - start > budget:
            break
        trial = "\n".join(lines[:first] + lines[last + 1:])
        if fails(trial):
            text = trial
            progress = True
            print("try %d: removed %d lines, %d left (%.0f s)" % (tries, last - first + 1,
                  len(text.split("\n")), time.time() - start), flush=True)
            open(os.path.join(os.environ.get("OUT", "/tmp"), name + ".hlsl"), "w").write(text)
            break
print("%s: %d lines after %d tries, %.0f s%s" % (name, len(text.split("\n")), tries,
      time.time() - start, "" if not progress else " (out of time)"))
open(os.path.join(os.environ.get("OUT", "/tmp"), name + ".hlsl"), "w").write(text)
