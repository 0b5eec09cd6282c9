# Shared by tests/html/units.sh: check(DOM, STRUCT, WANT) where WANT is
# {member path: (unit, type or None)}: exactly those members of the drawn
# STRUCT are marked as locks or atomics, each row naming the unit (and the
# type when given), each block of its bytes (its own, or its words when
# drawn expanded) with the class hm-UNIT.
from domcheck import parse, fail


def check(dom, name, want):
    root = parse(dom)
    secs = [s for s in root.find("section", "hm-struct") if s.attrs.get("data-struct") == name]
    if not secs:
        fail("struct %s is not drawn" % name)
    sec = secs[0]
    got = {}
    for tr in sec.find("tr", "hm-m"):
        lab = [n for n in tr.find("span") if "hm-unit-l" in n.cls()]
        if lab:
            got[tr.attrs["data-path"]] = lab[0]
    if set(got) != set(want):
        fail("%s: marked %s, want %s" % (name, sorted(got), sorted(want)))
    blocks = list(sec.find("div", "hm-b"))
    for path, (unit, typ) in sorted(want.items()):
        lab = got[path]
        if "hm-" + unit not in lab.cls():
            fail("%s.%s: row marked %s, want %s" % (name, path, lab.cls(), unit))
        mine = [b for b in blocks if b.attrs.get("data-path") == path or
                b.attrs.get("data-path", "").startswith(path + ".")]
        if not mine:
            fail("%s.%s: no block drawn" % (name, path))
        for b in mine:
            if "hm-" + unit not in b.cls() or b.attrs.get("data-unit") != unit:
                fail("%s.%s: block %s not marked %s" % (name, path, b.attrs.get("data-path"), unit))
        if typ and lab.attrs.get("data-unit-type") != typ:
            fail("%s.%s: type %r, want %r" % (name, path, lab.attrs.get("data-unit-type"), typ))
    for b in blocks:
        p = b.attrs.get("data-path", "")
        if b.attrs.get("data-unit") and not any(p == w or p.startswith(w + ".") for w in want):
            fail("%s: block %s marked %s" % (name, p, b.attrs.get("data-unit")))
    print("ok %s: %d members marked, %d lock, %d atomic" % (name, len(want),
          sum(v[0] == "lock" for v in want.values()), sum(v[0] == "atomic" for v in want.values())))
