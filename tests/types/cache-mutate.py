#!/usr/bin/env python3
"""cache-mutate.py CACHE-FILE OUT-PREFIX COUNT SEED

Write COUNT hostile variants of a hitmap type cache file: bytes of the
payload overwritten (indices, counts, string offsets set to 0, 1, huge or
random values) and the checksum recomputed, so that each variant passes
the integrity check and reaches the reader's bounds checks.  The header
layout mirrors struct cache_hdr in src/lib/load/typecache.c: magic[8],
format, endian, version[16], elem[13], pointer_size, table_pointer_size,
build_id[132], src_size, src_mtime, src_mtime_ns, count[13],
payload_size, checksum, lib_id[72] (440 bytes); sections follow, each
8-byte aligned."""
import os
import random
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from cachesum import checksum  # noqa: E402

NSECT = 13
ELEM_OFF, COUNT_OFF, SUM_OFF, HDR = 32, 248, 360, 440


def main():
    path, prefix, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    good = open(path, 'rb').read()
    elems = struct.unpack_from('<%dI' % NSECT, good, ELEM_OFF)
    counts = struct.unpack_from('<%dQ' % NSECT, good, COUNT_OFF)
    secs, off = [], 0
    for e, c in zip(elems, counts):
        off = (off + 7) & ~7
        secs.append((off, e * c))
        off += e * c
    h = 0
    for off_, n in secs:
        h = checksum(good[HDR + off_:HDR + off_ + n], h)
    if HDR + off != len(good) or h != struct.unpack_from('<Q', good, SUM_OFF)[0]:
        sys.exit('cache-mutate: %s does not have the expected layout' % path)
    rnd = random.Random(seed)
    for i in range(count):
        buf = bytearray(good)
        for _ in range(rnd.choice([1, 2, 8])):
            off, n = secs[rnd.choice([s for s in range(NSECT) if secs[s][1] >= 4])]
            p = HDR + off + (rnd.randrange(n - 3) & ~3)
            v = rnd.choice([0, 1, 2, 7, 0x7fffffff, 0xffffffff, rnd.randrange(1 << 32)])
            struct.pack_into('<I', buf, p, v)
        h = 0
        for off, n in secs:
            h = checksum(bytes(buf[HDR + off:HDR + off + n]), h)
        struct.pack_into('<Q', buf, SUM_OFF, h)
        open('%s%d' % (prefix, i), 'wb').write(buf)


if __name__ == '__main__':
    main()
