#!/bin/sh
# suggest --html on the false-sharing example.  With a rule keeping its two
# counters apart: each proposal is drawn before (today's layout, every member
# at the offsets and sizes of layout --json) and after (the size and lines
# of suggest --json), with its byte cost, and with no heat (a rule is not a
# measurement).  With a profile: the same, and every block on both sides
# carries the samples (loads + stores) the profile gives its field.  Neither
# page requests anything or logs an error.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/html/lib-html.sh"

build_fixture "$top_srcdir/examples/false-sharing/counters.c" "$T/c" gcc 5 -O2 -pthread
printf 'struct counters {\n\tapart hits misses\n}\n' >"$T/r.rules"
"$HITMAP" layout -C counters --json "$T/c" >"$T/l.json" || fail "layout --json"
"$HITMAP" suggest -C counters --rules "$T/r.rules" --json "$T/c" >"$T/s.json" || fail "suggest --json"
"$HITMAP" suggest -C counters --rules "$T/r.rules" --html "$T/s.html" "$T/c" >/dev/null ||
	fail "suggest --html"
html_dom "$T/s.html" s
python3 "$HTML_SRC/domcheck.py" suggest "$T/s.dom" "$T/s.json" "$T/l.json" >"$T/check.out" ||
	{ cat "$T/check.out"; fail "page and JSON differ"; }
cat "$T/check.out"
grep -q 'ok suggest: 1 structs, [1-9][0-9]* proposals, each before and after, 0 hot' "$T/check.out" ||
	fail "no proposal drawn, or heat from a rule"
html_quiet "$T/s.html" s

# A profile: hits and misses written by one thread each, contending, name
# and shift read by both.
python3 - "$T/l.json" >"$T/p.json" <<'PY' || fail "cannot write the profile"
import json, sys
m = {x["name"]: x for x in json.load(open(sys.argv[1]))["structs"][0]["members"]}
use = {"hits": (0, 700, [0]), "misses": (0, 500, [1]), "name": (300, 0, [0, 1]),
       "shift": (200, 0, [0, 1])}
fields = [{"path": k, "offset": m[k]["offset"], "size": m[k]["size"], "loads": l, "stores": s,
           "cpus": c} for k, (l, s, c) in sorted(use.items(), key=lambda i: m[i[0]]["offset"])]
pairs = [{"a": "hits", "b": "misses", "samples": 1200, "hitm": 400, "lines": 1, "cpus": [0, 1]}]
print(json.dumps({"schema": "hitmap-profile/1",
                  "source": {"input": "synthetic", "kind": "hitm", "samples": 1700,
                             "attributed": 1700},
                  "cacheline_size": 64,
                  "structs": [{"name": "counters", "kind": "struct", "size": json.load(open(sys.argv[1]))["structs"][0]["size"],
                               "fields": fields, "pairs": pairs, "true_shared": []}]}))
PY
"$HITMAP" suggest -C counters --profile "$T/p.json" --json "$T/c" >"$T/sp.json" ||
	fail "suggest --profile --json"
"$HITMAP" suggest -C counters --profile "$T/p.json" --html "$T/sp.html" "$T/c" >/dev/null ||
	fail "suggest --profile --html"
html_dom "$T/sp.html" sp
python3 "$HTML_SRC/domcheck.py" suggest "$T/sp.dom" "$T/sp.json" "$T/l.json" "$T/p.json" \
	>"$T/check.out" || { cat "$T/check.out"; fail "page, JSON and profile differ"; }
cat "$T/check.out"
grep -q 'ok suggest: 1 structs, [1-9][0-9]* proposals, each before and after, [1-9]' "$T/check.out" ||
	fail "no proposal drawn hot"
html_quiet "$T/sp.html" sp

# A contended line below another: its red label takes a row of its own and,
# in Chromium at 1400 and 1920 px, no label box meets a member block box
# (getBoundingClientRect over the DevTools protocol).  The rules say the
# object starts a line (`placement line-aligned`), so the page says that,
# and which rule file says it, never "may start anywhere"; without the
# placement it says the object may start anywhere its alignment allows.
cat >"$T/w.c" <<'C'
struct wide {
	char head[64];
	long hits;
	long misses;
	int n;
};
struct wide w;
C
build_fixture "$T/w.c" "$T/w" gcc 5 -O0 -c
printf 'struct wide {\n\tapart hits misses\n\tplacement line-aligned\n}\n' >"$T/w.rules"
"$HITMAP" suggest -C wide --rules "$T/w.rules" --html "$T/w.html" "$T/w" >/dev/null ||
	fail "suggest --html, line-aligned"
html_dom "$T/w.html" w
grep -q '<div class="hm-mark">⚠ hits and misses share this line</div>' "$T/w.dom" ||
	fail "the contended line has no label"
# what the page shows: the DOM without its script
python3 -c 'import re, sys; print(re.sub(r"(?s)<script.*?</script>", "", open(sys.argv[1]).read()))' \
	"$T/w.dom" >"$T/w.shown"
grep -q 'may start anywhere' "$T/w.shown" && fail "line-aligned by the rules, the page says anywhere"
grep -q "<p class=\"hm-placement\">placement: each object starts a line: \`placement line-aligned\` for wide in rules $T/w.rules</p>" \
	"$T/w.dom" || fail "the page does not say the rules make the object start a line"
grep -q "the object starts a line: \`placement line-aligned\` for wide in rules $T/w.rules" "$T/w.dom" ||
	fail "the drawings do not say where the object starts"
for px in 1400 1920; do
	python3 "$HTML_SRC/cdp.py" "$CHROMIUM" "$T/w.html" "$T/w$px.cdp" --width $px \
		--boxes '.hm-mark;.hm-b' || fail "cdp.py at $px px"
	python3 - "$T/w$px.cdp" $px <<'PY' || fail "at $px px a label is drawn over a member"
import json, sys
b = json.load(open(sys.argv[1]))["boxes"]
labels, blocks = b[".hm-mark"], b[".hm-b"]
assert labels and blocks, ("nothing measured", len(labels), len(blocks))
for l in labels:
    for m in blocks:
        assert l[2] <= m[0] or m[2] <= l[0] or l[3] <= m[1] or m[3] <= l[1], ("overlap", l, m)
print("%s px: %d labels, %d blocks, none over another" % (sys.argv[2], len(labels), len(blocks)))
PY
done
printf 'struct wide {\n\tapart hits misses\n}\n' >"$T/a.rules"
"$HITMAP" suggest -C wide --rules "$T/a.rules" --html "$T/a.html" "$T/w" >/dev/null ||
	fail "suggest --html, no placement"
html_dom "$T/a.html" a
grep -q '<p class="hm-placement">placement: the object may start anywhere its 8-byte alignment allows; lines counted from offset 0</p>' \
	"$T/a.dom" || fail "without a placement rule the page claims where the object starts"

# A kernel struct whose slab cache is made with SLAB_HWCACHE_ALIGN: the page
# names the kmem_cache_create() call (kernel/cred.c:692 in Linux 6.1), as
# suggest's own note does.
if [ -r /sys/kernel/btf/vmlinux ]; then
	"$HITMAP" suggest -C cred --lint --html "$T/k.html" /sys/kernel/btf/vmlinux >"$T/k.txt" ||
		fail "suggest --html on the running kernel's BTF"
	grep -q 'SLAB_HWCACHE_ALIGN (kernel/cred.c:692)' "$T/k.txt" || fail "suggest: no slab note"
	html_dom "$T/k.html" k
	grep -q '<p class="hm-placement">placement: each object starts a line: its slab cache is created with SLAB_HWCACHE_ALIGN (kernel/cred.c:692)</p>' \
		"$T/k.dom" || fail "the page does not say the slab cache aligns cred"
else
	echo "skipped the kernel part: no /sys/kernel/btf/vmlinux"
fi
