#!/usr/bin/env python3
"""Write the corrupt-DWARF corpus of an ELF64 little-endian binary.

dwarf-mutate.py BINARY OUTDIR: OUTDIR/NNN-SECTION-OFFSET-KIND, one file per
mutation, deterministic: in each of .debug_abbrev, .debug_info and
.debug_str, bytes at evenly spaced offsets (every byte of a small section)
get one of four edits (xor 0x01, xor 0x80, 0x00, 0xff), and .debug_str is
cut to one byte (its section header's size).  The section offsets come from
the section headers (no pyelftools)."""
import os
import struct
import sys

EDITS = (("x01", lambda b: b ^ 0x01), ("x80", lambda b: b ^ 0x80),
         ("z00", lambda b: 0x00), ("sff", lambda b: 0xFF))
PER_SECTION = 75


def sections(img):
    if img[:4] != b"\x7fELF" or img[4] != 2 or img[5] != 1:
        sys.exit("not an ELF64 little-endian file")
    shoff, = struct.unpack_from("<Q", img, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", img, 0x3A)
    hdrs = []
    for i in range(shnum):
        at = shoff + i * shentsize
        name, _, _, _, off, size = struct.unpack_from("<IIQQQQ", img, at)
        hdrs.append((name, off, size, at))
    stroff = hdrs[shstrndx][1]
    out = {}
    for name, off, size, at in hdrs:
        end = img.index(b"\0", stroff + name)
        out[img[stroff + name:end].decode()] = (off, size, at)
    return out


def main():
    binary, outdir = sys.argv[1], sys.argv[2]
    img = open(binary, "rb").read()
    secs = sections(img)
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for sec in (".debug_abbrev", ".debug_info", ".debug_str"):
        if sec not in secs:
            sys.exit("no %s in %s" % (sec, binary))
        off, size, _ = secs[sec]
        count = min(PER_SECTION, size)
        for k in range(count):
            pos = k * size // count
            kind, fn = EDITS[k % len(EDITS)]
            new = fn(img[off + pos])
            if new == img[off + pos]:
                kind, fn = EDITS[(k + 1) % len(EDITS)]
                new = fn(img[off + pos])
            b = bytearray(img)
            b[off + pos] = new
            name = "%03d%s-%x-%s" % (n, sec.replace(".", "-"), pos, kind)
            open(os.path.join(outdir, name), "wb").write(b)
            n += 1
    # .debug_str cut to one byte
    off, size, at = secs[".debug_str"]
    b = bytearray(img)
    struct.pack_into("<Q", b, at + 32, 1)
    open(os.path.join(outdir, "%03d-debug_str-cut-1" % n), "wb").write(b)
    n += 1
    print(n)


main()
