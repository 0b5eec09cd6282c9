#!/usr/bin/env python3
"""Check a page's drawn DOM (Chromium's --dump-dom) against the JSON hitmap
prints for the same input.  Prints "ok ..." lines; exits 1 naming the first
difference.

  domcheck.py layout  DOM LAYOUT.json
  domcheck.py report  DOM REPORT.json
  domcheck.py diff    DOM OLD-LAYOUT.json NEW-LAYOUT.json
  domcheck.py suggest DOM SUGGEST.json LAYOUT.json [PROFILE.json]
"""
import json, re, sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.kids = tag, dict(attrs), parent, []
        self.text = []		# the text directly inside, in order

    def all_text(self):
        return "".join(self.text) + "".join(k.all_text() for k in self.kids)

    def cls(self):
        return (self.attrs.get("class") or "").split()

    def walk(self):
        yield self
        for k in self.kids:
            yield from k.walk()

    def find(self, tag=None, cls=None, **attrs):
        for n in self.walk():
            if tag and n.tag != tag:
                continue
            if cls and cls not in n.cls():
                continue
            if any(n.attrs.get(k.replace("_", "-")) != v for k, v in attrs.items()):
                continue
            yield n


class Tree(HTMLParser):
    def __init__(self):
        super().__init__()
        self.root = self.cur = Node("#root", {}, None)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.kids.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_data(self, data):
        self.cur.text.append(data)

    def handle_endtag(self, tag):
        c = self.cur
        while c is not self.root and c.tag != tag:
            c = c.parent
        if c is not self.root:
            self.cur = c.parent


def parse(path):
    t = Tree()
    t.feed(open(path).read())
    return t.root


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def flat(members, prefix=None, out=None):
    """layout --json members (nested) as (path, offset, size) in pre-order;
    an anonymous member's path is "" and its members keep the outer path."""
    out = [] if out is None else out
    for m in members:
        path = None if m["name"] is None else (prefix + "." + m["name"] if prefix else m["name"])
        out.append((path or "", m["offset"], m["size"]))
        if m.get("members"):
            flat(m["members"], path if path is not None else prefix, out)
    return out


def drawn(sec):
    return [(n.attrs.get("data-path", ""), int(n.attrs["data-offset"]), int(n.attrs["data-size"]))
            for n in sec.find("tr", "hm-m")]


def same(what, want, got):
    if want != got:
        for i, (a, b) in enumerate(zip(want, got)):
            if a != b:
                fail("%s: member %d: JSON %r, page %r" % (what, i, a, b))
        fail("%s: JSON has %d members, the page %d" % (what, len(want), len(got)))


def leaves(members, prefix=None, out=None):
    """the members drawn as blocks: those without members of their own,
    with bytes (or bits)"""
    out = [] if out is None else out
    for m in members:
        path = None if m["name"] is None else (prefix + "." + m["name"] if prefix else m["name"])
        if m.get("members"):
            leaves(m["members"], path if path is not None else prefix, out)
        elif m["size"] or m["bit_size"]:
            out.append((path or "", m["offset"]))
    return out


def check_blocks(what, sec, members):
    have = {(n.attrs.get("data-path", ""), int(n.attrs["data-offset"])) for n in sec.find("div", "hm-b")}
    for leaf in leaves(members):
        if leaf not in have:
            fail("%s: member %s at %d has no block in the drawing" % (what, leaf[0], leaf[1]))


def check_layout(dom, js):
    root = parse(dom)
    doc = json.load(open(js))
    secs = {s.attrs["data-struct"]: s for s in root.find("section", "hm-struct")}
    n = 0
    for s in doc["structs"]:
        if s["name"] not in secs:
            fail("struct %s is not drawn" % s["name"])
        sec = secs[s["name"]]
        same("struct " + s["name"], flat(s["members"]), drawn(sec))
        check_blocks("struct " + s["name"], sec, s["members"])
        if int(sec.attrs["data-size"]) != s["size"]:
            fail("struct %s: size %s, JSON %d" % (s["name"], sec.attrs["data-size"], s["size"]))
        rows = list(sec.find("div", "hm-row"))
        if len(rows) != s["cachelines"]:
            fail("struct %s: %d rows, JSON %d cachelines" % (s["name"], len(rows), s["cachelines"]))
        n += len(s["members"])
    print("ok layout: %d structs, every member with its offset and size" % len(doc["structs"]))
    return root, doc


def field_name(f):
    if f["object"] is None:
        return "(unattributed)"
    p = f["path"] or ""
    return f["object"] + ("" if not p else p if p[0] == "[" else "." + p)


def check_report(dom, js):
    root = parse(dom)
    doc = json.load(open(js))
    for k, v in doc["buckets"].items():
        r = list(root.find(data_bucket=k))
        if len(r) != 1 or int(r[0].attrs["data-count"]) != v:
            fail("bucket %s: JSON %d, page %s" % (k, v, [x.attrs.get("data-count") for x in r]))
        # a row says whether its samples are named, as the JSON does
        if r[0].tag == "tr" and ("hm-unattr" in r[0].cls()) == (k in doc["attributed_buckets"]):
            fail("bucket %s: page says %s, JSON's attributed_buckets %s" %
                 (k, "unattributed" if "hm-unattr" in r[0].cls() else "attributed",
                  doc["attributed_buckets"]))
    ranked = list(root.find("tr", "hm-lineref"))
    if len(ranked) != len(doc["lines"]):
        fail("%d ranked lines, JSON %d" % (len(ranked), len(doc["lines"])))
    marked = 0
    for i, line in enumerate(doc["lines"]):
        sec = list(root.find("section", id="line-%d" % (i + 1)))
        if not sec:
            fail("line %d is not drawn" % (i + 1))
        sec = sec[0]
        if int(sec.attrs["data-address"]) != line["address"]:
            fail("line %d: address %s, JSON %d" % (i + 1, sec.attrs["data-address"], line["address"]))
        want = [(field_name(f), f["offset"], f["size"]) for f in line["fields"]]
        same("line %d" % (i + 1), want, drawn(sec))
        contended = any(True for _ in sec.find("div", "hm-contended"))
        if ("false" in line["verdict"]) != contended and "true" not in line["verdict"]:
            fail("line %d: %s, marked contended: %s" % (i + 1, line["verdict"], contended))
        marked += contended
    print("ok report: %d buckets, %d lines (%d marked contended), every field with its "
          "offset and size" % (len(doc["buckets"]), len(doc["lines"]), marked))


def check_diff(dom, old_js, new_js):
    root = parse(dom)
    old = {s["name"]: s for s in json.load(open(old_js))["structs"]}
    new = {s["name"]: s for s in json.load(open(new_js))["structs"]}
    pairs = list(root.find("section", "hm-diff"))
    if not pairs:
        fail("no struct drawn side by side")
    moved = 0
    for p in pairs:
        name = p.attrs["data-struct"]
        sides = {d.attrs["data-side"]: d for d in p.find("div") if "data-side" in d.attrs}
        a = next(sides["old"].find("section", "hm-struct"))
        b = next(sides["new"].find("section", "hm-struct"))
        fa, fb = flat(old[name]["members"]), flat(new[name]["members"])
        same("old " + name, fa, drawn(a))
        same("new " + name, fb, drawn(b))
        oa = {m[0]: m[1] for m in fa if m[0]}
        # "moved": a member that left its place among its siblings (same
        # path up to the last dot).  The unmarked members must keep their
        # order on both sides, and as few as that allows are marked: the
        # common members less a longest common subsequence of the orders
        # (a member that only shifts as one before it grows is not moved).
        def marked(sec, path):
            blk = [n for n in sec.find("div", "hm-b") if n.attrs.get("data-path") == path]
            return bool(blk) and "hm-moved" in blk[0].cls()
        common = [p for p, _, _ in fb if p and p in oa]
        groups = {}
        for p in common:
            groups.setdefault(p.rsplit(".", 1)[0] if "." in p else "", []).append(p)
        order_a = [p for p, _, _ in fa if p]
        want_moved = 0
        for g, vb in groups.items():
            va = [p for p in order_a if p in set(vb)]
            lcs = [[0] * (len(vb) + 1) for _ in range(len(va) + 1)]
            for i in range(len(va) - 1, -1, -1):
                for j in range(len(vb) - 1, -1, -1):
                    lcs[i][j] = lcs[i + 1][j + 1] + 1 if va[i] == vb[j] else max(lcs[i + 1][j], lcs[i][j + 1])
            want_moved += len(vb) - lcs[0][0]
            kept_b = [p for p in vb if not marked(b, p)]
            kept_a = [p for p in va if not marked(a, p)]
            if kept_a != kept_b:
                fail("%s: the members not marked moved change order: %s / %s" % (name, kept_a, kept_b))
        got_moved = [p for p in common if marked(b, p)]
        if len(got_moved) != want_moved:
            fail("%s: %d members marked moved, %d left their place: %s" %
                 (name, len(got_moved), want_moved, got_moved))
        for path, off, size in fb:
            if not path or path not in oa or not marked(b, path):
                continue
            if not marked(a, path):
                fail("%s: %s marked moved on the new side only" % (name, path))
            ids = {n.attrs.get("id") for n in root.walk()}
            links = [n for n in a.find("a") if n.attrs.get("href", "#")[1:] in ids and
                     path in n.attrs.get("href", "")]
            if not links:
                fail("%s: %s moved but the old side does not link to the new" % (name, path))
            moved += 1
    print("ok diff: %d structs side by side, %d moved members linked" % (len(pairs), moved))
    return moved


def block_heat(sec):
    """{path: the samples a drawn block's label gives} of one drawing"""
    out = {}
    for n in sec.find("div", "hm-b"):
        m = re.search(r", samples (\d+), ", n.attrs.get("aria-label", ""))
        if not m:
            fail("block %r: no samples in its label %r" % (n.attrs.get("data-path"),
                                                          n.attrs.get("aria-label")))
        out[n.attrs.get("data-path", "")] = int(m.group(1))
    return out


def profile_heat(pj, name):
    """{path: loads + stores} of struct name's fields in a profile"""
    for s in json.load(open(pj))["structs"]:
        if s["name"] == name:
            return {f["path"]: f["loads"] + f["stores"] for f in s["fields"]}
    fail("profile %s has no struct %s" % (pj, name))


def within(field, path):
    return field == path or field.startswith(path + ".") or field.startswith(path + "[")


def check_suggest(dom, sj, lj, pj=None):
    root = parse(dom)
    doc = json.load(open(sj))
    lay = {s["name"]: s for s in json.load(open(lj))["structs"]}
    secs = list(root.find("section", "hm-suggestion"))
    hot = 0
    if len(secs) != len(doc["structs"]):
        fail("%d suggestions drawn, JSON %d" % (len(secs), len(doc["structs"])))
    for sec, s in zip(secs, doc["structs"]):
        props = list(sec.find("section", "hm-proposal"))
        if len(props) != len(s["proposals"]):
            fail("%s: %d proposals drawn, JSON %d" % (s["name"], len(props), len(s["proposals"])))
        for box, p in zip(props, s["proposals"]):
            today, after = list(box.find("section", "hm-struct"))
            same("%s today" % s["name"], flat(lay[s["name"]]["members"]), drawn(today))
            if int(after.attrs["data-size"]) != p["size"]:
                fail("%s #%d: size %s, JSON %d" % (s["name"], p["rank"], after.attrs["data-size"],
                                                   p["size"]))
            if int(after.attrs["data-cachelines"]) != p["cachelines"]:
                fail("%s #%d: %s lines, JSON %d" % (s["name"], p["rank"],
                                                     after.attrs["data-cachelines"], p["cachelines"]))
            if str(p["growth"]) not in [n.attrs.get("data-growth") for n in box.find("td")]:
                fail("%s #%d: byte cost %d not shown" % (s["name"], p["rank"], p["growth"]))
            # heat: the evidence's loads + stores per field, on both sides;
            # none from rules or lint
            want = profile_heat(pj, s["name"]) if pj else {}
            for side, drawing in (("today", today), ("#%d" % p["rank"], after)):
                for path, got in block_heat(drawing).items():
                    v = sum(n for f, n in want.items() if path and within(f, path))
                    if got != v:
                        fail("%s %s: %s drawn with %d samples, evidence %d" %
                             (s["name"], side, path, got, v))
                    hot += v > 0
        notes = list(sec.find("p", "hm-heat-note"))
        if bool(notes) != bool(pj):
            fail("%s: heat note %s" % (s["name"], "missing" if pj else "without measured evidence"))
    if pj and not hot:
        fail("measured evidence, but no block drawn hot")
    print("ok suggest: %d structs, %d proposals, each before and after, %d hot blocks" %
          (len(secs), sum(len(s["proposals"]) for s in doc["structs"]), hot))


if __name__ == "__main__":
    mode = sys.argv[1]
    {"layout": lambda: check_layout(*sys.argv[2:4]), "report": lambda: check_report(*sys.argv[2:4]),
     "diff": lambda: check_diff(*sys.argv[2:5]), "suggest": lambda: check_suggest(*sys.argv[2:6])}[mode]()
