#!/usr/bin/env python3
"""answers-mutate.py ANSWERS-FILE OUT-PREFIX COUNT SEED

Write COUNT hostile variants of a hitmap answers file (the scope index's,
BUILD-ID.scopes, or the attribution's, BUILD-ID.attr): words of the
payload overwritten (counts, indices, string references, kinds set to 0,
1, huge or random values) and the checksum recomputed, so that each
variant passes the file's integrity check and reaches the answers' own
checks.  The header, the same for both, mirrors struct scopes_hdr in
src/lib/load/scopecache.c: magic[8], format, endian,
version[16], lib_id[72], build_id[132], pointer_size, src_size,
src_mtime, src_mtime_ns, payload_size, checksum (280 bytes); the payload
follows."""
import os
import random
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from cachesum import checksum  # noqa: E402

SUM_OFF, HDR = 272, 280


def main():
    path, prefix, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    good = open(path, 'rb').read()
    size = struct.unpack_from('<Q', good, SUM_OFF - 8)[0]
    if HDR + size != len(good) or checksum(good[HDR:], 0) != struct.unpack_from('<Q', good, SUM_OFF)[0]:
        sys.exit('answers-mutate: %s does not have the expected layout' % path)
    rnd = random.Random(seed)
    for i in range(count):
        buf = bytearray(good)
        for _ in range(rnd.choice([1, 2, 8])):
            # the counts (first 16 bytes) now and then, else anywhere
            p = HDR + (rnd.randrange(4) * 4 if rnd.random() < 0.2 else rnd.randrange(size - 3) & ~3)
            v = rnd.choice([0, 1, 2, 4, 5, 0x7fffffff, 0xffffffff, rnd.randrange(1 << 32)])
            struct.pack_into('<I', buf, p, v)
        struct.pack_into('<Q', buf, SUM_OFF, checksum(bytes(buf[HDR:]), 0))
        open('%s%d' % (prefix, i), 'wb').write(buf)


if __name__ == '__main__':
    main()
