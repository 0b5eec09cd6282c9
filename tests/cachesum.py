"""The checksum of hitmap's cache files (hmi_cache_checksum() in
src/lib/load/typecache.c), for the test scripts that write hostile cache
files which must still pass it: the type cache (tests/types/cache-mutate.py)
and the scope answers (tests/report/answers-mutate.py)."""
import struct

K, MASK = 0x9E3779B97F4A7C15, (1 << 64) - 1


def _step(h, w):
    h = ((h ^ w) * K) & MASK
    return h ^ (h >> 29)


def checksum(b, h):
    """Continue checksum h over the bytes b: four lanes over each 32
    bytes, folded into h, then the words and bytes left one at a time."""
    n32 = len(b) // 32
    if n32:
        lanes = [h, h ^ 1, h ^ 2, h ^ 3]
        words = struct.unpack_from('<%dQ' % (4 * n32), b, 0)
        for i in range(0, 4 * n32, 4):
            for j in range(4):
                lanes[j] = _step(lanes[j], words[i + j])
        for x in lanes:
            h = _step(h, x)
    off = 32 * n32
    n8 = (len(b) - off) // 8
    for w in struct.unpack_from('<%dQ' % n8, b, off):
        h = _step(h, w)
    for c in b[off + 8 * n8:]:
        h = ((h ^ c) * 0x100000001B3) & MASK
    return h
