#!/bin/sh
# layout --html without heat marks locks and atomics, the members lint
# treats as units (hitmap-lint: its lock and atomic types): every such
# member's row says "lock" or "atomic" with the type that makes it one, each
# block of its bytes carries the class hm-lock or hm-atomic, and no other
# member is marked.  The oracle on a fixture is its source (the expected
# members written out below); on mm_struct of the Debian 6.1 vmlinux it is
# pahole -E: a member is a lock when its expanded type names one of the
# lock types, else an atomic when it names an atomic type.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/html/lib-html.sh"

cat >"$T/u.c" <<'C'
#include <pthread.h>
typedef struct { int locked; } spinlock_t;
typedef struct { int counter; } atomic_t;
typedef struct { atomic_t refs; } refcount_t;
struct rw_semaphore { long count; long owner; };
struct mutex { long owner; int wait; };
struct holder { int x; spinlock_t lk; };
struct obj {
	long id;
	spinlock_t lock;
	struct rw_semaphore sem;
	atomic_t users;
	refcount_t ref;
	_Atomic int flags;
	struct mutex m;
	pthread_mutex_t pm;
	struct holder h;
	char name[16];
	long plain;
	struct { long a; long b; } pair;
};
struct obj o;
C
build_fixture "$T/u.c" "$T/u" gcc 5 -O0 -c
"$HITMAP" layout -C obj --html "$T/u.html" "$T/u" >/dev/null || fail "layout --html"
html_dom "$T/u.html" u
# path unit type; members not listed must carry no mark
python3 - "$HTML_SRC" "$T/u.dom" <<'PY' || fail "fixture: locks and atomics not marked as declared"
import sys
sys.path.insert(0, sys.argv[1])
from unitcheck import check
want = {"lock": ("lock", "spinlock_t"), "sem": ("lock", "struct rw_semaphore"),
        "users": ("atomic", "atomic_t"), "ref": ("atomic", "refcount_t"),
        "flags": ("atomic", "_Atomic"), "m": ("lock", "struct mutex"),
        "pm": ("lock", "pthread_mutex_t"), "h": ("lock", "spinlock_t")}
check(sys.argv[2], "obj", want)
PY
html_quiet "$T/u.html" u

VMLINUX=$(ls "$HM_TEST_CACHE"/x/usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -1)
if [ -z "$VMLINUX" ]; then
	echo "skipped mm_struct: no $HM_TEST_CACHE/x/usr/lib/debug/boot/vmlinux-* (tests/vmlinux/fetch.sh)"
	exit 0
fi
require pahole pahole
"$HITMAP" layout -C mm_struct --html "$T/mm.html" "$VMLINUX" >/dev/null || fail "layout --html mm_struct"
pahole -E -C mm_struct "$VMLINUX" >"$T/mm.pahole" || fail "pahole -E"
html_dom "$T/mm.html" mm
python3 - "$HTML_SRC" "$T/mm.dom" "$T/mm.pahole" <<'PY' || fail "mm_struct: locks and atomics differ from pahole -E"
import re, sys
sys.path.insert(0, sys.argv[1])
from unitcheck import check
LOCKS = ["spinlock_t", "raw_spinlock_t", "rwlock_t", "struct mutex", "struct rw_semaphore",
         "seqcount_t", "seqlock_t", "struct spinlock", "struct raw_spinlock",
         "struct percpu_rw_semaphore", "struct rt_mutex", "struct ww_mutex", "local_lock_t",
         "seqcount_spinlock_t", "seqcount_raw_spinlock_t", "seqcount_rwlock_t",
         "seqcount_mutex_t", "seqcount_latch_t"]
ATOMICS = ["atomic_t", "atomic64_t", "atomic_long_t", "refcount_t", "_Atomic"]
# the members of mm_struct's anonymous struct, two tabs in: each with the
# text of its expanded type
lines = open(sys.argv[3]).read().split("\n")
chunks, cur = [], []
for ln in lines:
    depth = len(ln) - len(ln.lstrip("\t"))
    body = ln.strip()
    if depth < 2 or not body or body.startswith(("/* XXX", "/* ---", "/* size", "/* sum", "/* last",
                                                 "/* padding", "/* paddings", "/* bit")):
        continue
    cur.append(body)
    if depth == 2 and body.endswith("*/") and ";" in body and not body.endswith("{"):
        chunks.append(cur)
        cur = []
def names_in(text):
    # a type named in pahole's expansion: "/* typedef T */", "struct T {",
    # or a member declared with it
    found = set()
    for t in LOCKS + ATOMICS:
        if t.startswith("struct "):
            if re.search(r"(^|[^\w])%s \{" % re.escape(t), text) or re.search(r"^%s\s" % re.escape(t), text, re.M):
                found.add(t)
        elif re.search(r"typedef %s \*/" % re.escape(t), text) or re.search(r"(^|\s)%s\s" % re.escape(t), text, re.M):
            found.add(t)
    return found
want = {}
for c in chunks:
    last = c[-1]
    m = re.search(r"(\w+)(\[\d*\])*;\s*/\*", last)
    if not m:
        continue
    text = "\n".join(c)
    if "(*" in c[0] or re.match(r"[\w ]+\*", c[0]):	# a pointer: nothing of the pointee
        continue
    f = names_in(text)
    if f & set(LOCKS):
        want[m.group(1)] = "lock"
    elif f:
        want[m.group(1)] = "atomic"
check(sys.argv[2], "mm_struct", {k: (v, None) for k, v in want.items()})
for k in ("page_table_lock", "mmap_lock", "mm_users", "mm_count"):
    assert k in want, "pahole -E: %s is no lock or atomic" % k
PY
