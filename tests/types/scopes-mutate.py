#!/usr/bin/env python3
"""Flip bytes in the debug sections of a binary and run scopedump on it.

usage: scopes-mutate.py SCOPEDUMP BINARY SEED RUNS SCRATCH PC...

Each run changes one to four bytes of one of .debug_info, .debug_abbrev,
.debug_addr, .debug_loc, .debug_loclists, .debug_ranges, .debug_rnglists
(what the scope index reads), chosen by the seed, and looks up every PC.
scopedump must exit 0 or 3 (corrupt DWARF, reported) within 10 seconds:
never crash, never loop.  Prints the failing runs and "runs N errors E
failures F"; exit 1 on any failure."""
import os
import random
import subprocess
import sys

sd, path, seed, runs, scratch = sys.argv[1:6]
pcs = sys.argv[6:]
data = open(path, "rb").read()
out = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True, check=True).stdout
WANT = (".debug_info", ".debug_abbrev", ".debug_addr", ".debug_loc", ".debug_loclists",
        ".debug_ranges", ".debug_rnglists")
secs = {}
for line in out.splitlines():
    f = line.replace("[ ", "[").split()
    if len(f) > 6 and f[1] in WANT:
        secs[f[1]] = (int(f[4], 16), int(f[5], 16))
# Under the sanitizers, libdwarf's own leaks on corrupt input are
# suppressed as in the fuzz runs (tests/fuzz/lsan.supp names each); hitmap's
# are still found.
env = dict(os.environ)
env.setdefault("LSAN_OPTIONS", "suppressions=" + os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "lsan.supp"))
# libdwarf has no frame pointers: only the slow unwinder sees its frames
env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"),
                                             "fast_unwind_on_malloc=0"]))
rnd = random.Random(int(seed))
errors = failures = 0
for run in range(int(runs)):
    name = rnd.choice(sorted(secs))
    off, size = secs[name]
    b = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        b[off + rnd.randrange(size)] = rnd.randrange(256)
    mut = "%s/mut-%d" % (scratch, run)
    open(mut, "wb").write(b)
    try:
        r = subprocess.run([sd, mut] + pcs, capture_output=True, timeout=10, env=env)
        rc = r.returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
    if rc == 3:
        errors += 1
    if rc not in (0, 3):
        failures += 1
        print("run %d (%s): exit %s (kept %s)" % (run, name, rc, mut))
    else:
        os.remove(mut)
print("runs %s errors %d failures %d" % (runs, errors, failures))
sys.exit(1 if failures else 0)
