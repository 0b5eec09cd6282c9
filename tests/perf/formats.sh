#!/bin/sh
# perf.data variants the reader must take: unknown header feature bits,
# several events told apart by id, the in-memory reader, and the writer's
# files read back exactly (every field gen-c2c set).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/perf/lib-perf.sh"
require perf linux-perf
SCENE="lcl-hitm:0x601008:2:1 st-l1hit:0x601000:3:0 rmt-hitm:0x601010:1:1 st-l1miss:0x601040"

# Unknown feature bits (one past perf 6.1's last, one far beyond): perf
# ignores them and so does hitmap; the samples are unchanged.
"$GEN" -o "$T/plain.data" $SCENE || fail "gen-c2c"
"$PD" --records "$T/plain.data" >"$T/plain.txt"
for bit in 32 200; do
	"$GEN" -o "$T/unk.data" --unknown-feature $bit $SCENE || fail "gen-c2c feature $bit"
	compare_samples "$T/unk.data" tid,cpu,addr,data_src,weight,ip 7
	"$PD" --records "$T/unk.data" >"$T/unk.txt" || fail "unknown feature $bit rejected"
	assert_files_eq "$T/plain.txt" "$T/unk.txt" "records with unknown feature $bit"
done

# Several events: loads are event 0 (id 101), stores event 1 (id 202), as
# gen-c2c writes them; with IDENTIFIER too.
for v in "" --identifier; do
	"$GEN" -o "$T/ev.data" $v $SCENE || fail "gen-c2c $v"
	"$PD" --records "$T/ev.data" | awk '$1 == "sample" { print $2, $7 }' >"$T/ev.got"
	printf '%s\n' "ev=0 addr=0x601008" "ev=0 addr=0x601008" "ev=1 addr=0x601000" \
		"ev=1 addr=0x601000" "ev=1 addr=0x601000" "ev=0 addr=0x601010" \
		"ev=1 addr=0x601040" >"$T/ev.want"
	assert_files_eq "$T/ev.want" "$T/ev.got" "samples by event ($v)"
	perf script -i "$T/ev.data" -F event 2>/dev/null | sed 's/: *$//; s/^ *//' >"$T/evn.perf"
	"$PD" --info "$T/ev.data" | sed -n 's/^event \([0-9]*\) name \([^ ]*\) .*/\1 \2/p' >"$T/names"
	"$PD" --records "$T/ev.data" | awk 'NR == FNR { n[$1] = $2; next }
		$1 == "sample" { sub("ev=", "", $2); print n[$2] }' "$T/names" - >"$T/evn.ours"
	assert_files_eq "$T/evn.perf" "$T/evn.ours" "event of each sample ($v)"
done

# Everything the generator put in a sample comes back: pid, tid, time, id,
# cpu, period, weight, data_src, phys_addr (gen-c2c: time starts at 1e9 and
# steps by 1000, phys = 0x100000000 + low 28 bits of the address).
"$GEN" -o "$T/one.data" --pid 77 rmt-hitm-skx:0x7f0012345678:1:1:78 || fail "gen-c2c one"
"$PD" --records "$T/one.data" | grep '^sample' >"$T/one.got"
echo "sample ev=0 ip=0x401000 pid=77 tid=78 time=1000000000 addr=0x7f0012345678 id=101 cpu=1 period=1 weight=310 data_src=0x3629800002 phys=0x102345678 mode=2" >"$T/one.want"
assert_files_eq "$T/one.want" "$T/one.got" "one sample, every field"
perf script -i "$T/one.data" -F tid,time,addr,phys_addr,period --ns 2>/dev/null | awk '{ $1 = $1; print }' >"$T/one.perf"
echo "78 1.000000000: 1 7f0012345678 102345678" >"$T/one.want"
assert_files_eq "$T/one.want" "$T/one.perf" "perf script on the same sample"

# AUXTRACE's payload follows the record without being counted in its size:
# skipped, the records around it unchanged.  (perf 6.1 refuses an AUXTRACE
# record without AUXTRACE_INFO, so perf cannot be the oracle here: the file
# without the record is.)
"$GEN" -o "$T/aux.data" --auxtrace 4104 $SCENE || fail "gen-c2c --auxtrace"
"$PD" "$T/aux.data" | grep -v '^other type=71$' >"$T/aux.txt" || fail "AUXTRACE rejected"
assert_files_eq "$T/plain.txt" "$T/aux.txt" "records around an AUXTRACE payload"
# the same record claiming more payload than the file holds
AUX=$("$PD" --records --offsets "$T/aux.data" | awk '$2 == "other" && $3 == "type=71" { print $1 }')
[ -n "$AUX" ] || fail "no AUXTRACE record seen"
cp "$T/aux.data" "$T/aux-bad.data"
printf '\377\377\377\377' | dd of="$T/aux-bad.data" bs=1 seek=$((AUX + 8 + 4)) conv=notrunc 2>/dev/null
assert_exit 3 "AUXTRACE payload past the data" "$PD" "$T/aux-bad.data"
# (the payload starts after the 48-byte record)
grep -q "truncated AUXTRACE payload at offset $(printf '0x%x' $((AUX + 48)))" "$T/err" ||
	fail "aux: $(cat "$T/err")"

# Compressed by the writer: 200-byte blocks, so records straddle the
# COMPRESSED records perf reads (perf script and perf c2c agree); then
# 16-byte chunks, and COMPRESSED2 (newer perf), read back unchanged.
"$GEN" -o "$T/zc.data" --compress 200 --cpus 2 $SCENE || fail "gen-c2c --compress"
compare_samples "$T/zc.data" tid,cpu,addr,data_src,weight,ip 7
compare_c2c "$T/zc.data"
for z in "--compress 200" "--compress 100,16" "--compress2 100,16"; do
	"$GEN" -o "$T/zc.data" $z $SCENE || fail "gen-c2c $z"
	"$PD" --records "$T/zc.data" >"$T/zc.txt" || fail "$z rejected"
	assert_files_eq "$T/plain.txt" "$T/zc.txt" "records of a file written with $z"
	"$PD" --stat "$T/zc.data" 2>/dev/null | grep -q ' compressed 1 ' || fail "$z: not compressed"
done

# The in-memory reader gives the same records as the file reader.
for f in "$T/plain.data" "$T/ev.data"; do
	"$PD" --mem "$f" >"$T/mem.txt" || fail "in-memory reader rejected $f"
	"$PD" "$f" >"$T/file.txt"
	assert_files_eq "$T/file.txt" "$T/mem.txt" "in-memory reader on $f"
done
# TEXT_POKE records (the kernel rewrote its text), both byte orders: the
# reader's address, lengths and bytes are what perf script prints.
for v in "" --swap; do
	"$GEN" -o "$T/poke.data" $v --text-poke 0xffffffffab0011e0:e906f80a02:488b470890 \
		--text-poke 0xffffffffab123456:0f1f440000:e9fb000000 $SCENE || fail "gen-c2c --text-poke $v"
	perf script -i "$T/poke.data" --show-text-poke-events 2>/dev/null | awk '
		/PERF_RECORD_TEXT_POKE/ { for (i = 1; i < NF; i++) if ($i == "PERF_RECORD_TEXT_POKE") a = $(i + 1)
					  o = $(NF - 3); n = $NF }
		/Old bytes:/ { sub(/.*Old bytes: */, ""); gsub(/ /, ""); ob = $0 }
		/New bytes:/ { sub(/.*New bytes: */, ""); gsub(/ /, "");
			       printf "text_poke addr=0x%s old_len=%s new_len=%s old=%s new=%s\n", a, o, n, ob, $0 }' \
		>"$T/poke.perf"
	"$PD" --records "$T/poke.data" | grep '^text_poke' >"$T/poke.ours" || fail "no text_poke record read ($v)"
	[ "$(wc -l <"$T/poke.perf")" = 2 ] || { cat "$T/poke.perf" >&2; fail "perf script shows no 2 TEXT_POKE records ($v)"; }
	assert_files_eq "$T/poke.perf" "$T/poke.ours" "TEXT_POKE records ($v)"
done

echo "formats: ok"
