# Shared by the HTML tests: hitmap's pages opened in headless Chromium
# (Debian's chromium; as root it needs --no-sandbox, and every run gets a
# profile directory of its own under $T).
require chromium chromium
require python3 python3
CHROMIUM=$(command -v chromium)
HTML_SRC="$TESTS_SRC/html"

# chromium_run NAME ARGS...: headless Chromium, its chatter in $T/NAME.log
chromium_run() {
	name=$1; shift
	mkdir -p "$T/profile-$name"
	"$CHROMIUM" --headless=new --no-sandbox --disable-gpu --no-first-run \
		--no-default-browser-check --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir="$T/profile-$name" \
		"$@" 2>"$T/$name.log"
}

# html_dom PAGE NAME: the DOM after the page's script ran (--dump-dom), in
# $T/NAME.dom
html_dom() {
	chromium_run "$2-dom" --dump-dom "file://$1" >"$T/$2.dom" ||
		{ tail -5 "$T/$2-dom.log" >&2; fail "$2: chromium --dump-dom failed"; }
	grep -q 'data-ready="1"' "$T/$2.dom" || fail "$2: the page's script did not finish drawing"
}

# html_quiet PAGE NAME [cdp.py OPTIONS]: open PAGE over the DevTools
# protocol; fail on any request but the page itself and on any console error
# or warning, log error or exception.  What it saw is in $T/NAME.cdp.
html_quiet() {
	page=$1 name=$2; shift 2
	python3 "$HTML_SRC/cdp.py" "$CHROMIUM" "$page" "$T/$name.cdp" "$@" || fail "$name: cdp.py failed"
	set -- "$page" "$name"
	python3 - "$T/$2.cdp" "$2" <<'PY' || fail "$2: the page fetched something or logged an error"
import json, sys
r = json.load(open(sys.argv[1]))
bad = []
if not r["ready"]:
    bad.append("never finished drawing")
bad += ["request: " + u for u in r["requests"]]
bad += r["console"]
for b in bad:
    print("%s: %s" % (sys.argv[2], b), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
