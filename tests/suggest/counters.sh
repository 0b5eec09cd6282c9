#!/bin/sh
# A counters struct written by four threads, one counter each, between two
# read-mostly fields every thread reads (counters4.c; offsets in its header
# comment: the whole struct is 48 bytes on one line).  The profile gives every
# pair of a counter with another counter or with a read-mostly field 10
# HITMs: 4*3/2 + 4*2 = 14 pairs, 140 in all.
#
# The object's start is not pinned (alignment 8), so today's contention is
# averaged over the 8 starts a 64-byte line allows: 102.50 of 140.
#
# Two ways to give each counter a line, read-mostly fields grouped in front:
#  - explicit padding: name 0..7, shift 8..11, then each counter 64 bytes
#    after the previous one (pads of 60, 56, 56, 56 bytes: the least that keeps
#    them off each other's lines for every 8-aligned start): c3 at 264..271,
#    sizeof 272, +224;
#  - alignment: name, shift, then c0..c3 each at a line boundary 64, 128, 192,
#    256, sizeof 320 (64-aligned), +272.
# Padding costs fewer bytes for the same separation, so it ranks first.  Both
# are checked by patching counters4.c, rebuilding and comparing layouts.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/suggest/oracle.sh"

fixture counters4.c
python3 - >"$T/c.profile" <<'PY' || fail "cannot write the profile"
import itertools, json
fields = [{"path": "name", "offset": 0, "size": 8, "loads": 400, "stores": 0,
           "cpus": [0, 1, 2, 3]},
          {"path": "shift", "offset": 40, "size": 4, "loads": 400, "stores": 0,
           "cpus": [0, 1, 2, 3]}]
fields += [{"path": "c%d" % i, "offset": 8 + 8 * i, "size": 8, "loads": 0,
            "stores": 100, "cpus": [i]} for i in range(4)]
names = ["name", "c0", "c1", "c2", "c3", "shift"]
pairs = [{"a": a, "b": b, "samples": 20, "hitm": 10, "lines": 1, "cpus": [0, 1, 2, 3]}
         for a, b in itertools.combinations(names, 2)
         if not (a in ("name", "shift") and b in ("name", "shift"))]
print(json.dumps({"schema": "hitmap-profile/1",
                  "source": {"input": "synthetic", "kind": "hitm", "samples": 1000,
                             "attributed": 1000},
                  "cacheline_size": 64,
                  "structs": [{"name": "pcpu_counters", "kind": "struct", "size": 48,
                               "fields": fields, "pairs": pairs, "true_shared": []}]}))
PY
cat >"$T/expected" <<'EOF2'
#1 one line per written member (explicit padding)
   cost: +224 bytes (sizeof 48 -> 272), cachelines 1 -> 5,
   remaining contention: 0 of 102.50 today (0%)
#2 one line per written member (4 members aligned)
   cost: +272 bytes (sizeof 48 -> 320), cachelines 1 -> 5,
   remaining contention: 0 of 102.50 today (0%)
EOF2

for ccf in "gcc -g -gdwarf-5 -O2" "clang -g -gdwarf-5 -O2"; do
	cc=${ccf%% *}
	command -v "$cc" >/dev/null || skip "$cc not installed (Debian package $cc)"
	echo "+ (cd $T/src && $ccf -o $T/c-$cc tests/suggest/counters4.c)" >&2
	(cd "$T/src" && $ccf -o "$T/c-$cc" tests/suggest/counters4.c) || fail "cannot build"
	# one line per counter costs four lines, past the default budget of two
	assert_exit 0 "suggest ($cc)" "$HITMAP" suggest --max-growth 512 --profile "$T/c.profile" \
		"$T/c-$cc"
	grep -q '^  contention on shared lines: 102.50 of 140$' "$T/out" || fail "today ($cc)"
	summary "$T/out" | head -6 >"$T/summary"
	assert_files_eq "$T/expected" "$T/summary" "the two per-line proposals ($cc)"
	for k in 1 2; do
		oracle $k pcpu_counters "$T/src" tests/suggest/counters4.c "$T/c-$cc" "$ccf" \
			--max-growth 512 --profile "$T/c.profile"
		# read-mostly neighbours grouped in front of the counters
		sed -n '2,3p' "$T/oracle-$k.actual" | sed 's/;.*//' | awk '{print $NF}' >"$T/first"
		printf '%s\n' name shift >"$T/want"
		assert_files_eq "$T/want" "$T/first" "proposal #$k: name and shift first ($cc)"
	done
	grep -q '^+	char pad1\[60\];$' "$T/oracle-1.diff" || fail "padding patch ($cc)"
	# within the default budget (two lines) both are left out, and said so
	assert_exit 0 "suggest, default budget ($cc)" "$HITMAP" suggest \
		--profile "$T/c.profile" "$T/c-$cc"
	grep -q '^note: [0-9]* proposals left out: they grow the struct by more than 128 bytes$' \
		"$T/out" || fail "default budget note ($cc)"
	if summary "$T/out" | grep -q 'one line per written member'; then
		fail "a proposal past the default budget ($cc)"
	fi
done
