"""The checksum of hitmap's cache files (hmi_cache_checksum() in
src/lib/load/typecache.c), for the test scripts that write hostile cache
files which must still pass it: the type cache (tests/types/cache-mutate.py)
and the scope answers (tests/report/answers-mutate.py)."""
import struct

K, MASK = 0x9E3779B97F4A7C15, (1 << 64) - 1


def checksum(b, h):
    """Continue checksum h over the bytes b."""
    n = len(b) // 8
    for w in struct.unpack_from('<%dQ' % n, b, 0):
        h = ((h ^ w) * K) & MASK
        h ^= h >> 29
    for c in b[n * 8:]:
        h = ((h ^ c) * 0x100000001B3) & MASK
    return h
