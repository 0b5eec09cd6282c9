#!/usr/bin/env python3
"""Compare scopedump's variables with gdb's `info scope *0xPC` (the oracle).

usage: scopes-cmp.py GDB_OUTPUT SCOPEDUMP_OUTPUT

gdb lists the symbols of the innermost block and its superblocks up to the
nearest function, which may be an inlined one; the hitmap side compared is
therefore the variables whose fn_depth is the innermost scope's.  For every
symbol gdb lists, its location at the PC (a multi-location symbol: the range
holding the PC) is one of
  reg R 0    "a variable in $R"
  reg R N    "DW_OP_bregR N; DW_OP_stack_value"
  breg R N   "DW_OP_bregR N" alone ("a variable at offset N from base reg $R")
  fbreg F N  "frame base reg $F offset 0+N", or "DW_OP_fbreg N" (F = cfa)
  addr A     "static storage at address A"
or none (optimized out, constants, entry values, pieces, longer
expressions, no range holding the PC); hitmap must report exactly the located
ones, name for name, and none of the others.  Prints one line per
disagreement and a summary "pcs P outside O vars V located L multi U
mismatches M" (O: PCs in no function, padding, not compared; U: located
symbols that gdb prints as multi-location, resolved by the range holding
the PC as hitmap resolves location lists); exit 1 on
any mismatch."""
import re
import sys

REGS = {"rax": 0, "rdx": 1, "rcx": 2, "rbx": 3, "rsi": 4, "rdi": 5, "rbp": 6, "rsp": 7,
        "rip": 16}
for i in range(8, 16):
    REGS["r%d" % i] = i


def reg(name):
    return REGS.get(name.lstrip("$"), "?" + name)


def expr_loc(ops):
    """Location from a list of gdb-printed operator lines ("DW_OP_x args")."""
    ops = [o.split() for o in ops]
    if len(ops) == 1 and ops[0][0] == "DW_OP_fbreg":
        return ("fbreg", "cfa", int(ops[0][1]))
    m = re.match(r"DW_OP_breg(\d+)$", ops[0][0]) if ops else None
    if m and len(ops[0]) >= 2:
        r, off = int(m.group(1)), int(ops[0][1])
        if len(ops) == 1:
            return ("breg", r, off)
        if len(ops) == 2 and ops[1][0] == "DW_OP_stack_value":
            return ("reg", r, off)
    return None


def desc_loc(first, rest):
    """Location from a description (first line after ':' or 'is', rest lines)."""
    first = first.strip()
    m = re.match(r"a variable in (\$\w+)", first)
    if m:
        return ("reg", reg(m.group(1)), 0)
    m = re.match(r"a variable at frame base reg (\$\w+) offset (-?\d+)\+(-?\d+)", first)
    if m:
        return ("fbreg", reg(m.group(1)), int(m.group(2)) + int(m.group(3)))
    m = re.match(r"a variable at offset (-?\d+) from base reg (\$\w+)", first)
    if m:
        return ("breg", reg(m.group(2)), int(m.group(1)))
    m = re.match(r"(?:is )?in static storage at address (0x[0-9a-f]+)", first)
    if m:
        return ("addr", int(m.group(1), 16))
    if first.startswith("a complex DWARF expression"):
        ops = []
        for line in rest:
            mm = re.match(r"\s*\d+: (DW_OP_\w+(?: -?\w+)?)", line)
            if mm:
                # nested operands of DW_OP_entry_value are indented further
                ops.append(mm.group(1))
        if any(o.startswith("DW_OP_entry_value") or o.startswith("DW_OP_GNU_entry_value")
               for o in ops):
            return None
        return expr_loc(ops)
    return None


MULTI = [0]  # located symbols gdb prints as multi-location


def parse_gdb(text):
    """{pc: [(name, loc or None)]}"""
    out = {}
    pc = None
    sym = None  # [name, lines]

    def flush():
        if sym is None or pc is None:
            return
        name, lines = sym
        head = lines[0]
        if head.startswith("a function") or " is a function" in head:
            return
        if head.startswith("multi-location"):
            loc = None
            rng = None
            cur = None
            for line in lines[1:]:
                m = re.match(r"\s*(?:Base address 0x[0-9a-f]+\s+)?Range (0x[0-9a-f]+)-(0x[0-9a-f]+): (.*)", line)
                if m:
                    if cur is not None and rng[0] <= pc < rng[1]:
                        loc = desc_loc(cur[0], cur[1:])
                    rng = (int(m.group(1), 16), int(m.group(2), 16))
                    cur = [m.group(3)]
                elif cur is not None:
                    cur.append(line)
            if cur is not None and rng[0] <= pc < rng[1]:
                loc = desc_loc(cur[0], cur[1:])
            out[pc].append((name, loc))
            if loc is not None:
                MULTI[0] += 1
        else:
            out[pc].append((name, desc_loc(head, lines[1:])))

    for line in text.splitlines():
        m = re.match(r"Scope for \*(0x[0-9a-f]+)", line)
        if m:
            flush()
            sym = None
            pc = int(m.group(1), 16)
            out[pc] = []
            continue
        m = re.match(r"Symbol (\S+) is (.*)", line)
        if m and pc is not None:
            flush()
            sym = [m.group(1), [m.group(2)]]
            continue
        if sym is not None:
            if re.match(r", length \d+\.", line) or re.match(r".*, length \d+\.$", line):
                continue
            sym[1].append(line)
    flush()
    return out


def parse_hm(text):
    """{pc: (fn_depth, [(name, loc, fn_depth)])}"""
    out = {}
    pc = None
    for line in text.splitlines():
        f = line.split()
        if not line.startswith(" "):
            pc = int(f[1], 16)
            out[pc] = (int(f[5]), [], f[3])
            continue
        name, kind, r, off = f[0], f[1], f[2], int(f[3])
        fnd = int(f[6])
        if kind == "addr":
            loc = ("addr", off & (2**64 - 1))
        elif kind == "fbreg":
            loc = ("fbreg", r if r == "cfa" else int(r), off)
        else:
            loc = (kind, int(r), off)
        out[pc][1].append((name, loc, fnd))
    return out


def main():
    gdb = parse_gdb(open(sys.argv[1]).read())
    hm = parse_hm(open(sys.argv[2]).read())
    nv = nl = bad = outside = 0
    for pc in sorted(gdb):
        if pc in hm and hm[pc][2] == "-":
            # in no function (padding between functions): gdb lists the
            # file's static block, hitmap has no scope; nothing to compare
            outside += 1
            if hm[pc][1]:
                bad += 1
                print("pc 0x%x: hitmap reports variables outside any scope" % pc)
            continue
        want = {}
        for name, loc in gdb[pc]:
            # gdb strips "length" from single-line descriptions
            if loc is not None and loc[0] == "reg" and isinstance(loc[1], str):
                loc = None
            want.setdefault(name, []).append(loc)
        fnd, vars_, _ = hm.get(pc, (0, [], "-"))
        got = {}
        for name, loc, d in vars_:
            if d == fnd:
                got.setdefault(name, []).append(loc)
        for name in sorted(set(want) | set(got)):
            w = sorted([l for l in want.get(name, []) if l is not None], key=str)
            g = sorted(got.get(name, []), key=str)
            nv += len(want.get(name, [])) or 1
            nl += len(w)
            if w != g:
                bad += 1
                print("pc 0x%x %s: gdb %s hitmap %s" % (pc, name, w, g))
    print("pcs %d outside %d vars %d located %d multi %d mismatches %d" %
          (len(gdb), outside, nv, nl, MULTI[0], bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
