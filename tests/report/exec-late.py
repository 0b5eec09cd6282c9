#!/usr/bin/env python3
"""Move a perf.data file's exec COMM record past half the records that
follow it in its round, as happens when the exec ran on one CPU and the new program's
first mappings were made on another: perf writes each CPU's ring buffer in
turn, so the COMM lands after MMAP2 records of later time.  Every record
keeps its bytes and its time; only the file order changes, inside one round
(perf's ordered events sort a round by time, so perf reads both files alike).

  exec-late.py IN OUT   prints how many records the COMM moved past
"""
import struct
import sys

COMM, MMAP2, FINISHED_ROUND, COMM_EXEC = 3, 10, 12, 0x2000
data = bytearray(open(sys.argv[1], 'rb').read())
if data[:8] != b'PERFILE2':
    sys.exit('exec-late: %s: not a perf.data file' % sys.argv[1])
off, size = struct.unpack_from('<QQ', data, 40)	# the data section
recs, at = [], off
while at < off + size:
    typ, misc, rsz = struct.unpack_from('<IHH', data, at)
    if rsz < 8:
        sys.exit('exec-late: bad record at %#x' % at)
    recs.append((typ, misc, bytes(data[at:at + rsz])))
    at += rsz
i = next((k for k, r in enumerate(recs) if r[0] == COMM and r[1] & COMM_EXEC), None)
if i is None:
    sys.exit('exec-late: no exec COMM record')
j = i + 1
while j < len(recs) and recs[j][0] != FINISHED_ROUND:
    j += 1
# Halfway through the round: samples follow it in the same round, as in
# the recordings where this was seen.
j = i + 1 + (j - i - 1) // 2
moved = recs[i + 1:j]
if not any(r[0] == MMAP2 for r in moved):
    sys.exit('exec-late: no MMAP2 after the exec in its round')
recs = recs[:i] + moved + [recs[i]] + recs[j:]
data[off:off + size] = b''.join(r[2] for r in recs)
open(sys.argv[2], 'wb').write(data)
print(len(moved))
