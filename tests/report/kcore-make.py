#!/usr/bin/env python3
"""Write a kcore_dir as `perf record --kcore` saves it (kcore, kallsyms,
modules) from an ELF file's text, for tests: kcore is an ELF64 core file
(ET_CORE) with one PT_LOAD segment (R+X) holding the file's bytes of
[_stext, _etext) rounded out to pages, at run-time addresses (link address
+ --kaslr); kallsyms lists the file's text symbols at run-time addresses.

  kcore-make.py ELF OUTDIR [--kaslr OFF] [--write LINKADDR:HEX]...
                [--move-funcs N] [--truncate N]

--write rewrites bytes (the kernel's boot-time patching); --move-funcs N
puts every function but _stext N bytes away in kallsyms (a kernel of
another build); --truncate N cuts the kcore file to N bytes.  The ELF is
read with readelf and nm (binutils), not with hitmap."""
import argparse
import os
import struct
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("elf")
ap.add_argument("out")
ap.add_argument("--kaslr", type=lambda s: int(s, 0), default=0)
ap.add_argument("--write", action="append", default=[])
ap.add_argument("--move-funcs", type=lambda s: int(s, 0), default=0)
ap.add_argument("--truncate", type=int, default=-1)
o = ap.parse_args()

syms = []
for line in subprocess.run(["nm", o.elf], check=True, capture_output=True,
                           text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 3 and f[1] in "Tt":
        syms.append((int(f[0], 16), f[1], f[2]))
by = {n: a for a, t, n in syms}
stext, etext = by["_stext"], by["_etext"]
lo, hi = stext & ~0xfff, (etext + 0xfff) & ~0xfff

seg = None
for line in subprocess.run(["readelf", "-lW", o.elf], check=True, capture_output=True,
                           text=True).stdout.splitlines():
    f = line.split()
    if len(f) >= 8 and f[0] == "LOAD":
        off, va, fsz = int(f[1], 16), int(f[2], 16), int(f[4], 16)
        if va <= lo < va + fsz and etext <= va + fsz:
            seg = (off, va)
            hi = min(hi, va + fsz)    # a small file's text ends before the page
if not seg:
    sys.exit("no PT_LOAD holds [_stext, _etext) in %s" % o.elf)
with open(o.elf, "rb") as f:
    f.seek(seg[0] + lo - seg[1])
    text = bytearray(f.read(hi - lo))
for w in o.write:
    a, h = w.split(":")
    a, b = int(a, 16), bytes.fromhex(h)
    assert lo <= a and a + len(b) <= hi, w
    text[a - lo:a - lo + len(b)] = b

os.makedirs(o.out, exist_ok=True)
# ELF64 little-endian core: header, one program header, the bytes at 4096
ehdr = struct.pack("<16sHHIQQQIHHHHHH", b"\x7fELF\x02\x01\x01" + bytes(9), 4, 62, 1, 0,
                   64, 0, 0, 64, 56, 1, 64, 0, 0)
run = lo + o.kaslr
phdr = struct.pack("<IIQQQQQQ", 1, 5, 4096, run & (2**64 - 1), 0, len(text), len(text), 4096)
img = ehdr + phdr
img += bytes(4096 - len(img)) + bytes(text)
if o.truncate >= 0:
    img = img[:o.truncate]
with open(os.path.join(o.out, "kcore"), "wb") as f:
    f.write(img)
with open(os.path.join(o.out, "kallsyms"), "w") as f:
    for a, t, n in sorted(syms):
        if n != "_stext" and n != "_text":
            a += o.move_funcs
        f.write("%016x %s %s\n" % ((a + o.kaslr) & (2**64 - 1), t, n))
with open(os.path.join(o.out, "modules"), "w") as f:
    pass
