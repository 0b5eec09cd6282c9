# Shared functions of the perf.data tests: run perf and hitmap's perf-dump on
# the same file and bring both outputs to one comparable form.  Sourced after
# lib.sh.
PD="$top_builddir/tests/perf/perf-dump"
GEN="$top_builddir/tests/perf/gen-c2c"
DATA="$TESTS_SRC/data"
[ -x "$PD" ] && [ -x "$GEN" ] || fail "tests/perf/perf-dump and gen-c2c are not built (make check builds them)"

# samples_perf FILE FIELDS: one line per sample from `perf script`.
# FIELDS is a comma list, a subset of tid,cpu,addr,data_src,weight,ip in this
# order; each line holds those values, hex without 0x.  perf prints them in
# that order: the data_src decode text between the raw value and the weight is
# dropped, weight and ip are the last two tokens.
samples_perf() {
	perf script -i "$1" -G -F "$2" 2>"$T/perf-script.err" >"$T/perf-script.raw" ||
		{ cat "$T/perf-script.err" >&2; fail "perf script rejected $1"; }
	awk -v f="$2" '
	BEGIN { n = split(f, F, ",") }
	NF == 0 { next }
	{
		i = 1; out = ""
		for (k = 1; k <= n; k++) {
			v = ""
			if (F[k] == "tid") v = $(i++)
			else if (F[k] == "cpu") { v = $(i++); gsub(/[][]/, "", v); v = v + 0 }
			else if (F[k] == "addr") v = $(i++)
			else if (F[k] == "data_src") v = $(i++)
			else if (F[k] == "weight") v = $(NF - 1)
			else if (F[k] == "ip") v = $NF
			out = out (k > 1 ? " " : "") v
		}
		print out
	}' "$T/perf-script.raw"
}

# samples_ours FILE FIELDS: the same from perf-dump --records.
samples_ours() {
	"$PD" --records "$1" >"$T/pd.raw" 2>"$T/pd.err" ||
		{ cat "$T/pd.err" >&2; fail "perf-dump rejected $1"; }
	awk -v f="$2" '
	BEGIN { n = split(f, F, ",") }
	$1 == "sample" {
		delete V
		for (i = 2; i <= NF; i++) {
			eq = index($i, "="); k = substr($i, 1, eq - 1); v = substr($i, eq + 1)
			sub(/^0x/, "", v); V[k] = v
		}
		out = ""
		for (k = 1; k <= n; k++)
			out = out (k > 1 ? " " : "") V[F[k]]
		print out
	}' "$T/pd.raw"
}

# compare_samples FILE FIELDS [MIN]: perf script and perf-dump agree on every
# sample, and there are at least MIN samples (default 1).  Sorted: perf
# script orders samples by time across CPUs, the reader gives file order.
compare_samples() {
	samples_perf "$1" "$2" | sort >"$T/s-perf.txt"
	samples_ours "$1" "$2" | sort >"$T/s-ours.txt"
	n=$(wc -l <"$T/s-perf.txt")
	[ "$n" -ge "${3:-1}" ] || fail "$1: perf script shows $n samples, want at least ${3:-1}"
	assert_files_eq "$T/s-perf.txt" "$T/s-ours.txt" "$1: samples ($2) differ from perf script's"
}

# c2c_perf FILE: perf c2c report's "Trace Event Information" as label=value,
# then the Shared Data Cache Line Table rows as
# `line=ADDR hitm lcl rmt records loads stores l1hit l1miss na fb l1 l2 llc lclhitm rmthit rmthitm lcldram rmtdram`
# (the row's numeric columns after the percentage), sorted by address.
c2c_perf() {
	perf c2c report -i "$1" --stdio >"$T/c2c.raw" 2>"$T/c2c.err" ||
		{ cat "$T/c2c.err" >&2; fail "perf c2c report rejected $1"; }
	awk '/Trace Event Information/ { f = 1 } /Global Shared Cache Line/ { f = 0 }
	     f && /:/ { split($0, a, ":"); l = a[1]; gsub(/^ +| +$/, "", l); v = a[2]; gsub(/ /, "", v)
			if (v ~ /^-?[0-9]+$/) print l "=" v }' "$T/c2c.raw"
	awk '/Shared Data Cache Line Table/ { f = 1 } /Pareto/ { f = 0 }
	     f && $1 ~ /^[0-9]+$/ { printf "line=%s", $2; for (i = 6; i <= 23; i++) printf " %s", $i; print "" }' \
		"$T/c2c.raw" | sort
}

c2c_ours() {
	"$PD" --c2c-perf "$1" >"$T/pd-c2c.raw" 2>"$T/pd.err" ||
		{ cat "$T/pd.err" >&2; fail "perf-dump rejected $1"; }
	grep -v '^line=' "$T/pd-c2c.raw"
	grep '^line=' "$T/pd-c2c.raw" | sort
}

# compare_c2c FILE: hitmap's c2c counts, totals and per line, equal perf's.
compare_c2c() {
	c2c_perf "$1" >"$T/c-perf.txt"
	c2c_ours "$1" >"$T/c-ours.txt"
	assert_files_eq "$T/c-perf.txt" "$T/c-ours.txt" "$1: c2c counts differ from perf c2c report's"
}

# c2c_value FILE LABEL: one of perf-dump's perf-style totals.
c2c_value() {
	"$PD" --c2c-perf "$1" | awk -F= -v l="$2" '$1 == l { print $2 }'
}
