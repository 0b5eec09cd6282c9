#!/usr/bin/env python3
"""Per-cpu sites of a vmlinux and their truth, for tests/vmlinux/percpu.test.

percpu-sites.py sites OBJDUMP NM [MAX]
    From `objdump -d` of the kernel text and `nm -n -S` of the vmlinux:
    instructions that access a per-cpu variable by %gs, one per distinct
    per-cpu offset and form, printed "IP OFFSET FORM VARIABLE VAROFF":
      abs      %gs:0xOFF (an absolute per-cpu offset)
      rip      %gs:0xD(%rip), objdump's comment naming the offset
      this_cpu mov $0xC,%R; add %gs:this_cpu_off(%rip),%R; then D(%R): C + D
    The variable is nm's symbol holding the offset, below __per_cpu_end.
percpu-sites.py expect GDB SITES
    GDB: gdb's `ptype /o VARIABLE` for each variable, each after a line
    "==VARIABLE==".  Prints "IP PATH" per site: the deepest named member
    holding VAROFF, anonymous members left out, the first member of a
    union; "-" for a site in a bitfield's storage (not compared).
percpu-sites.py compare SITES EXPECT REPORT BASE STRIDE
    Site k's sample is at BASE + k * STRIDE + OFFSET; the report's field at
    that address must be per-cpu:VARIABLE and its path the expected one
    (array indices left out: gdb does not expand array elements).  Prints
    one line per mismatch, then a summary; exit 1 on any mismatch."""
import bisect
import json
import re
import sys


def sites(objdump, nm, limit):
    syms, end = [], None
    for line in open(nm):
        w = line.split()
        if len(w) == 3 and w[2] == "__per_cpu_end":
            end = int(w[0], 16)
        if len(w) == 4 and w[2] in "dDbB":
            syms.append((int(w[0], 16), int(w[1], 16), w[3]))
    if end is None:
        sys.exit("no __per_cpu_end in " + nm)
    syms = [s for s in syms if s[0] + s[1] <= end and s[1]]
    syms.sort()

    starts = [s[0] for s in syms]

    def var_of(off):
        # the symbols starting at or below off, nearest first (aliases)
        i = bisect.bisect_right(starts, off)
        while i > 0 and off - syms[i - 1][0] < 1 << 16:
            a, n, name = syms[i - 1]
            if off < a + n:
                return (name, off - a)
            i -= 1
        return None

    absre = re.compile(r"%gs:0x([0-9a-f]+)(?:,|$)")
    ripre = re.compile(r"%gs:-?0x[0-9a-f]+\(%rip\).*# ([0-9a-f]+) <")
    movre = re.compile(r"^\s*mov\s+\$0x([0-9a-f]+),%(r\w+)$")
    addre = re.compile(r"^\s*add\s+%gs:-?0x[0-9a-f]+\(%rip\),%(r\w+)\s+# [0-9a-f]+ <this_cpu_off>")
    seen, out, prev, pend = set(), [], None, None
    for line in open(objdump):
        m = re.match(r"^([0-9a-f]{16}):\t(.*)$", line.rstrip("\n"))
        if not m:
            prev = pend = None
            continue
        ip, text = m.group(1), m.group(2)
        mnem = text.split()[0] if text.split() else ""
        form = off = None
        if pend and mnem not in ("lea", "nop", "nopl", "nopw") and not mnem.startswith("prefetch"):
            c, reg = pend
            mm = re.search(r"(?:^|[ ,])(-?0x[0-9a-f]+)?\(%" + reg + r"\)", text)
            if mm and "%gs" not in text:
                form, off = "this_cpu", c + (int(mm.group(1), 16) if mm.group(1) else 0)
        pend = None
        a = addre.match(text)
        if a and prev and prev[1] == a.group(1):
            pend = (prev[0], a.group(1))
        mv = movre.match(text)
        prev = (int(mv.group(1), 16), mv.group(2)) if mv else None
        if form is None and mnem not in ("lea", "nop", "nopl", "nopw") and "%gs:" in text:
            r = ripre.search(text)
            if r and "this_cpu_off" not in text:
                form, off = "rip", int(r.group(1), 16)
            else:
                b = absre.search(text)
                if b:
                    form, off = "abs", int(b.group(1), 16)
        if form is None or (form, off) in seen:
            continue
        v = var_of(off)
        if not v:
            continue
        seen.add((form, off))
        out.append("%s 0x%x %s %s %d" % (ip, off, form, v[0], v[1]))
    # every this_cpu site, then the others, up to the limit
    out.sort(key=lambda s: s.split()[2] != "this_cpu")
    for s in out[:limit]:
        print(s)


def parse_ptype(lines):
    """gdb's ptype /o body → tree of (name, off, size, decl, children)."""
    mem = re.compile(r"^/\*\s*(\d+)(?::\s*\d+)?\s*\|\s*(\d+)\s*\*/\s*(.*)$")
    umem = re.compile(r"^/\*\s+(\d+)\s*\*/\s*(.*)$")
    close = re.compile(r"^\s*\}\s*([A-Za-z_]\w*)?\s*((?:\[\d*\])*)\s*;")
    root = {"name": None, "off": 0, "size": 1 << 62, "decl": "", "kids": [], "union": False}
    stack = [root]
    for line in lines:
        line = line.rstrip()
        m = mem.match(line)
        u = None if m else umem.match(line)
        if m or u:
            if m:
                off, size, rest = int(m.group(1)), int(m.group(2)), m.group(3)
            else:
                off, size, rest = stack[-1]["off"], int(u.group(1)), u.group(2)
            bit = bool(re.search(r":\s*\d+\s*;$", rest))
            node = {"name": None, "off": off, "size": size, "decl": rest, "kids": [],
                    "union": rest.startswith("union"), "bit": bit}
            stack[-1]["kids"].append(node)
            if rest.endswith("{"):
                stack.append(node)
            else:
                node["name"] = member_name(rest)
            continue
        c = close.match(line)
        if c and len(stack) > 1:
            node = stack.pop()
            node["name"] = c.group(1)
            node["decl"] += c.group(2) or ""
    return root


def member_name(decl):
    d = re.sub(r"\s*:\s*\d+\s*;$", ";", decl).rstrip(";").strip()
    fp = re.search(r"\(\*\s*([A-Za-z_]\w*)\)", d)
    if fp:
        return fp.group(1)
    d = re.sub(r"(\[\d*\])+$", "", d)
    m = re.search(r"([A-Za-z_]\w*)$", d)
    return m.group(1) if m else None


def deepest(node, x, path):
    for k in node["kids"]:
        if k["off"] <= x < k["off"] + k["size"]:
            if k.get("bit"):
                return None
            p = path + ([k["name"]] if k["name"] else [])
            arr = "[" in k["decl"]
            if k["kids"] and not arr:
                return deepest(k, x, p)
            # a leaf gdb does not expand (atomic_t, an array) may be
            # named deeper: its path is a prefix
            return (".".join(p), True)
    return (".".join(path), False)


def expect(gdb, sites_file):
    bodies, cur = {}, None
    for line in open(gdb, errors="replace"):
        m = re.match(r"^==(\S+)==$", line.strip())
        if m:
            cur = bodies.setdefault(m.group(1), [])
            continue
        if cur is not None:
            cur.append(line)
    for line in open(sites_file):
        ip, off, form, var, voff = line.split()
        body = bodies.get(var)
        if body is None:
            print(ip, "-")
            continue
        # ptype of a pointer (or an array of them) shows the pointee:
        # the variable itself is the field then
        closes = [l for l in body if re.match(r"^\s*\}", l)]
        if closes and re.match(r"^\s*\}\s*\*", closes[-1]):
            print(ip, '""')
            continue
        r = deepest(parse_ptype(body), int(voff), [])
        print(ip, "-" if r is None else (r[0] or '""') + ("[]" if r[1] else ""))


def compare(sites_file, expect_file, report, base, stride):
    exp = dict(l.split() for l in open(expect_file))
    d = json.load(open(report))
    fields = [f for l in d["lines"] for f in l["fields"]]
    bad = ok = skipped = by_type = 0
    for k, line in enumerate(open(sites_file)):
        ip, off, form, var, voff = line.split()
        want = exp.get(ip, "-")
        if want == "-":
            skipped += 1
            continue
        arr = want.endswith("[]")
        want = want[:-2] if arr else want
        want = "" if want == '""' else want
        a = base + k * stride + int(off, 16)
        f = [f for f in fields if f["address"] <= a < f["address"] + max(f["size"], 1)]
        got = f[0] if f else None
        gp = re.sub(r"\[\d+\]", "", got["path"] or "") if got else None
        gobj = re.sub(r"\[\d+\]$", "", got["object"] or "") if got else None
        good = (got and gobj == "per-cpu:" + var and got["strategy"] == "per-cpu" and
                (gp == want or (arr and gp.startswith(want + ".")) or
                 (arr and gp == want)))
        # a this_cpu_ptr held by a typed variable gdb also sees (tracking
        # could not walk the function): named by the pointer's type, the
        # same field
        typed = (not good and got and form == "this_cpu" and
                 got["strategy"] == "instruction" and gp == want)
        if good:
            ok += 1
        elif typed:
            ok += 1
            by_type += 1
        else:
            bad += 1
            print("%s %s %s+%s: want per-cpu:%s.%s, got %s" % (
                ip, form, var, voff, var, want,
                "%s.%s (%s)" % (got["object"], got["path"], got["strategy"]) if got
                else "nothing at 0x%x" % a))
    print("%d sites named as gdb names them (%d by the pointer variable's type), %d not, "
          "%d bitfield sites not compared" % (ok, by_type, bad, skipped))
    return bad == 0


if __name__ == "__main__":
    if sys.argv[1] == "sites":
        sites(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 300)
    elif sys.argv[1] == "expect":
        expect(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "compare":
        sys.exit(0 if compare(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5], 0),
                              int(sys.argv[6], 0)) else 1)
    else:
        sys.exit(__doc__)
