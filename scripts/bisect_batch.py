#!/usr/bin/env python3
"""Cuts a saved batch (ONESHADER_GENERATED_SAVE) that fails on a device down to the fewest
programs whose calls still make it fail, by removing calls from `main`.

Usage: bisect_batch.py SEED BATCH.hlsl
Environment: ONESHADER_GENERATED_BIN (the generated test binary), BUDGET (seconds, default 150);
the failure is a dispatch that does not finish (ONESHADER_FENCE_TIMEOUT_S=4), or, with
CHECK="programK thread  T: WORDS" and KEEP=K, program K's line not being CHECK (program K is
always kept). START=a,b,c starts from those programs. Prints each try and the result."""
import os, re, subprocess, sys, time

# The generated test binary (cargo test -p oneshader-e2e --test generated --no-run prints it).
BIN = os.environ["ONESHADER_GENERATED_BIN"]
start = time.time()
budget = float(os.environ.get('BUDGET', '150'))

seed, path = sys.argv[1], sys.argv[2]
src = open(path).read()
calls = sorted(int(m) for m in re.findall(r"^\s*program(\d+)\(tid\);", src, re.M))
tries = 0

def variant(keep):
    out = []
    for line in src.split("\n"):
        m = re.match(r"^\s*program(\d+)\(tid\);", line)
        if m and int(m.group(1)) not in keep:
            continue
        out.append(line)
    return "\n".join(out)

def hangs(keep):
    global tries
    tries += 1
    f = "/tmp/bisect-%s.hlsl" % tries
    open(f, "w").write(variant(set(keep)))
    env = dict(os.environ, ONESHADER_GENERATED_RUN=f, ONESHADER_GENERATED_SEED=seed,
               ONESHADER_GENERATED_TARGETS="spirv", ONESHADER_FENCE_TIMEOUT_S="4")
    t = time.time()
    out = ""
    proc = subprocess.Popen([BIN, "saved_shaders", "--exact", "--nocapture"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        out += line
        if "does not run" in line or time.time() - t > 30:
            break
    proc.kill()
    check = os.environ.get("CHECK")
    bad = "does not run" in out or (check is not None and check not in out)
    msg = [l for l in out.split("\n") if "does not run" in l]
    print("try %d: programs %s: %s (%.1f s) %s" % (tries, sorted(keep), "FAILS" if bad else "passes",
          time.time() - t, msg[0][-80:] if msg else ""), flush=True)
    return bad

if os.environ.get("START"):
    calls = [int(p) for p in os.environ["START"].split(",")]
if not hangs(calls):
    print("the whole batch runs"); sys.exit(0)
if os.environ.get("CHECK"):
    must = int(os.environ["KEEP"])
    keep = calls
    for p in list(calls):
        if p == must:
            continue
        if time.time() - start > budget:
            print('out of time'); break
        trial = [q for q in keep if q != p]
        if hangs(trial): keep = trial
    print("RESULT: programs", keep, "fail together; tries", tries)
    sys.exit(0)
if os.environ.get("START"):
    lo, hi = len(calls) - 1, len(calls)
else:
    lo, hi = 0, len(calls)
# smallest prefix that hangs: a prefix of lo programs runs (assumed), one of hi hangs
while hi - lo > 1:
    mid = (lo + hi) // 2
    if hangs(calls[:mid]): hi = mid
    else: lo = mid
last = calls[hi - 1]
print("smallest hanging prefix ends at program", last)
keep = calls[:hi]
# drop programs one by one (greedy), last one stays
for p in list(keep[:-1]):
    if time.time() - start > budget:
        print('out of time'); break
    trial = [q for q in keep if q != p]
    if hangs(trial): keep = trial
print("RESULT: programs", keep, "hang together; tries", tries)
