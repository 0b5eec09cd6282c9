# gdb's own reading of the lab's sampled instructions, for seeds-check.py:
# run inside gdb on the vmlinux,
#
#   gdb -batch -nx -x gdb-scope.py -ex 'python lab_scope("IN", "OUT")' VMLINUX
#
# IN holds one JSON query a line: {"ip", "object", "struct", "path",
# "address", "off"}, a row hitmap report attributed: in an instance of
# STRUCT (OBJECT empty), OFF being the field's address less the instance's
# start; or in the global OBJECT, at ADDRESS (gdb takes the offset from its
# own address of the global).  IP and ADDRESS are the vmlinux's.  OUT gets the
# query with "gdb": "agree" | "wrong" | "silent" and "why".
#
# The field is gdb's when the instruction at IP (gdb's disassembly) reaches
# memory through a base register that, at IP, holds a pointer variable
# (gdb's `info scope *IP`: "a variable in $REG", or DW_OP_bregN K with
# DW_OP_stack_value, the pointer plus K), and the type that variable points
# to is the type of the object's path up to some member, at the offset the
# displacement gives, so the byte reached is inside the field hitmap names.
# A timer sample may also mean the memory instruction before the
# transparent ones (a jcc, a pause) that end before IP (stepped_back(), the
# rule of hitmap-report(1), SAMPLED REGISTERS, read from gdb's disassembly).
# For a watchpoint sample (AFTER set) the instruction is the one before IP:
# the trap comes after the access.  When the pointer is a container_of of a
# list head (list_for_each_entry's cursor at the head), the type does not
# hold, and the field is gdb's when the innermost member gdb reaches (the
# head's next) is the path's innermost one.
# A global reached rip-relative is gdb's when the disassembler's
# <SYMBOL+OFF> is the global and OFF is inside the field.  "silent": gdb
# holds no variable in the base register at IP (optimised out, an index
# register, an integer), nothing to compare.
#
# A query {"site", "var", "struct"} asks instead whether the allocation that
# returns to SITE assigns a `struct STRUCT *` variable VAR (judge_site()).
import json
import re

import gdb

REGS64 = {}
for r64, names in {
        "rax": "rax eax ax al", "rbx": "rbx ebx bx bl", "rcx": "rcx ecx cx cl",
        "rdx": "rdx edx dx dl", "rsi": "rsi esi si sil", "rdi": "rdi edi di dil",
        "rbp": "rbp ebp bp bpl", "rsp": "rsp esp sp spl"}.items():
    for n in names.split():
        REGS64[n] = r64
for i in range(8, 16):
    for suf in ("", "d", "w", "b"):
        REGS64["r%d%s" % (i, suf)] = "r%d" % i


def plain(t):
    return t.strip_typedefs().unqualified()


def same(a, b):
    """One type, whichever compile unit gdb read each from: by tag when
    both have one (a struct's copies in two units need not compare equal)."""
    a, b = plain(a), plain(b)
    if a.code != b.code:
        return False
    if a.tag and b.tag:
        return a.tag == b.tag
    return a == b


def index(off, ft, idx):
    """(offset, type) of elements IDX ("[1][2]") of array type FT at OFF;
    None when FT is no array that deep."""
    for i in re.findall(r"\[(\d+)\]", idx):
        at = plain(ft)
        if at.code != gdb.TYPE_CODE_ARRAY:
            return None
        ft = at.target()
        off += int(i) * ft.sizeof
    return off, ft


def field_at(t, comp):
    """(offset in bytes, type, (unit, bytes)) of member COMP of
    struct/union T ("name", "name[1][2]"; "[1]" an element of T itself),
    looking into anonymous members; None when absent.  A bitfield's offset
    is that of its first byte, unit its storage unit's size, bytes how many
    its bits take; (0, 0) for any other member."""
    m = re.match(r"(\w*)((?:\[\d+\])*)$", comp)
    if not m:
        return None
    name, idx = m.group(1), m.group(2)
    if not name:
        r = index(0, t, idx) if idx else None
        return r + ((0, 0),) if r else None
    st = plain(t)
    if st.code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
        return None
    for f in st.fields():
        if f.name == name:
            r = index(f.bitpos // 8, f.type, idx)
            if r and f.bitsize:	# its unit, and the bytes its bits take
                return r + ((plain(f.type).sizeof, (f.bitpos % 8 + f.bitsize + 7) // 8),)
            return r + ((0, 0),) if r else None
        if not f.name and not f.is_base_class:
            sub = field_at(f.type, comp)
            if sub:
                return (f.bitpos // 8 + sub[0],) + sub[1:]
    return None


def chain(t, path):
    """[(prefix, offset, type, (unit, bytes))] from the struct itself down
    to PATH (see field_at)."""
    out = [("", 0, t, (0, 0))]
    off = 0
    if not path:
        return out
    pre = []
    for comp in path.split("."):
        r = field_at(t, comp)
        if r is None:
            return None
        off += r[0]
        t = r[1]
        pre.append(comp)
        out.append((".".join(pre), off, t, r[2]))
    return out


MEM = re.compile(r"(-?0x[0-9a-f]+|-?\d+)?\(%(\w+)(?:,%(\w+)(?:,\d)?)?\)")
RIP_SYM = re.compile(r"<([\w.]+)(?:\+(\d+))?>")


def scope_vars(pc):
    """[(name, register, K)] of the variables gdb places in a register, or
    a register plus a constant, at PC."""
    try:
        text = gdb.execute("info scope *0x%x" % pc, to_string=True)
    except gdb.error:
        return []
    out = []
    for chunk in re.split(r"^Symbol ", text, flags=re.M)[1:]:
        name = chunk.split(" ", 1)[0]
        if " is multi-location:" in chunk.split("\n", 1)[0]:
            for rng in re.split(r"\n\s*(?=Range )", chunk)[1:]:
                m = re.match(r"Range (0x[0-9a-f]+)-(0x[0-9a-f]+): (.*)", rng, re.S)
                if not m or not int(m.group(1), 16) <= pc < int(m.group(2), 16):
                    continue
                out += loc_regs(name, m.group(3))
        else:
            out += loc_regs(name, chunk.split(" is ", 1)[1] if " is " in chunk else "")
    return out


def loc_regs(name, loc):
    m = re.match(r"a variable in \$(\w+)", loc.strip())
    if m:
        return [(name, m.group(1), 0)]
    ops = re.findall(r"\d+: (DW_OP_\w+)(?: (-?\d+))?(?: \[\$(\w+)\])?", loc)
    if len(ops) == 2 and ops[0][0].startswith("DW_OP_breg") and ops[1][0] == "DW_OP_stack_value":
        return [(name, ops[0][2], int(ops[0][1] or 0))]
    return []


def var_types(pc):
    """{name: [type]} of the symbols in the blocks around PC, innermost first."""
    out = {}
    try:
        b = gdb.block_for_pc(pc)
    except RuntimeError:
        return out
    # the blocks `info scope` lists: up to the innermost function, inlined
    # or not
    while b is not None and not b.is_global and not b.is_static:
        for s in b:
            if s.is_variable or s.is_argument:
                out.setdefault(s.name, []).append(s.type)
        if b.function is not None:
            break
        b = b.superblock
    return out


def insn_before(ip):
    """(address, text) of the instruction that ends at IP, from the
    function's start: a watchpoint traps after the access."""
    sym = gdb.execute("info symbol 0x%x" % ip, to_string=True)
    m = re.match(r"\S+ \+ (\d+) in ", sym)
    start = ip - int(m.group(1)) if m else ip
    if start == ip:
        return None
    last = None
    for l in gdb.execute("disassemble 0x%x,0x%x" % (start, ip), to_string=True).splitlines():
        m = re.match(r"\s*(?:=> )?(0x[0-9a-f]+)(?: <[^>]*>)?:\s*(.*)", l)
        if m:
            last = (int(m.group(1), 16), m.group(2).strip())
    return last


def inner(t, at):
    """(containing type, member) of the innermost member of T holding byte
    AT, by gdb's layout of T."""
    last = None
    while True:
        st = plain(t)
        if st.code == gdb.TYPE_CODE_ARRAY and st.target().sizeof:
            t, at = st.target(), at % st.target().sizeof
            continue
        if st.code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            return last
        for f in st.fields():
            o = f.bitpos // 8
            if not f.is_base_class and o <= at < o + max(plain(f.type).sizeof, 1):
                if f.name:
                    last = (str(st), f.name)
                t, at = f.type, at - o
                break
        else:
            return last


def views(t, off, want, path, depth=12):
    """The member paths [(name, in a union)] of T at which a TYPE WANT
    starts at byte OFF, through every member of every union."""
    st = plain(t)
    if off == 0 and same(st, want):
        yield path
    if depth <= 0:
        return
    if st.code == gdb.TYPE_CODE_ARRAY and st.target().sizeof:
        yield from views(st.target(), off % st.target().sizeof, want, path, depth - 1)
        return
    if st.code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
        return
    for f in st.fields():
        o = f.bitpos // 8
        if f.is_base_class or f.bitsize or not o <= off < o + max(plain(f.type).sizeof, 1):
            continue
        yield from views(f.type, off - o, want, path + [(f.name, st.code == gdb.TYPE_CODE_UNION)],
                         depth - 1)


def union_view(t, path, target, foff, fend, at):
    """Whether a TARGET that starts at some offset P of struct T, with P+AT
    inside the row's field [FOFF, FEND), is another member of a union the
    row's PATH goes into: gdb's members and the path's agree on every name
    before that union (the union's own member names may differ)."""
    names = path.split(".") if path else []
    for p in range(max(foff - at, 0), fend - at):
        if not foff <= p + at < fend:
            continue
        for v in views(t, p, target, []):
            named = []
            for name, in_union in v:
                if in_union:
                    # the path takes another member of this union
                    if names[:len(named)] == named and len(names) > len(named) and \
                            name != names[len(named)]:
                        return True
                    break
                if name:
                    named.append(name)
    return False


JCC = re.compile(r"j[a-z]+\s+(0x[0-9a-f]+)")


def transparent(insn):
    """An instruction that touches no memory and writes no register: a
    direct jump, pause, cmp, test, nop."""
    w = insn.split(None, 1)
    op = w[0] if w else ""
    if op.startswith("j"):
        return bool(JCC.match(insn))
    if op.startswith("nop") or op in ("pause", "endbr64"):
        return True
    return op.startswith(("cmp", "test")) and "(" not in insn


def falls_through(insn):
    return not insn.startswith(("jmp", "ret", "call"))


def stepped_back(ip):
    """(address, text) of the memory instruction a timer sample at IP means
    when the one before IP touches no memory: back over transparent
    instructions, each reached from one place alone (the one before it
    falls through into it and no direct jump targets it, or nothing falls
    through into it and one direct jump does), at most 4; else None."""
    ins = []
    for l in gdb.execute("disassemble 0x%x" % ip, to_string=True).splitlines():
        m = re.match(r"\s*(?:=> )?(0x[0-9a-f]+)(?: <[^>]*>)?:\s*(.*)", l)
        if m:
            ins.append((int(m.group(1), 16), m.group(2).strip()))
    at = {a: k for k, (a, _) in enumerate(ins)}
    src = {}
    for a, t in ins:
        m = JCC.match(t)
        if m:
            src.setdefault(int(m.group(1), 16), []).append(a)
    j = at.get(ip, 0) - 1
    for _ in range(4):
        if j <= 0 or not transparent(ins[j][1].split("#")[0].strip()):
            return None
        s = src.get(ins[j][0], [])
        if not s and falls_through(ins[j - 1][1]):
            j -= 1
        elif len(s) == 1 and not falls_through(ins[j - 1][1]):
            j = at[s[0]]
        else:
            return None
        t = ins[j][1].split("#")[0]
        if "(" in t and not t.startswith(("nop", "lea")):
            return ins[j]
    return None


def judge(q):
    """gdb's verdict on one query.  A timer sample's IP is the next
    instruction to run: hitmap takes the access from the one before it when
    that one ran last, else from the one at the IP, else from the memory
    instruction before transparent ones (a jcc, pause: under TCG the
    interrupt is taken after them); gdb agrees when one of them reaches the
    field."""
    v = judge_at(q)
    if v[0] != "agree" and not q.get("after"):
        w = judge_at(dict(q, after=True, timer=True))
        if w[0] == "agree":
            q["insn"] = "before the IP: " + q.get("insn", "")
            return w
        b = stepped_back(q["ip"])
        w = judge_at(dict(q, back=b, timer=True)) if b else w
        if b and w[0] == "agree":
            q["insn"] = "stepped back from the IP to 0x%x %s" % b
            return w
    return v


def judge_at(q):
    pc = q["ip"]
    if q.get("back"):
        pc, insn = q["back"]
    elif q.get("after"):
        prev = insn_before(pc)
        if prev is None:
            return "silent", "no instruction before 0x%x" % pc
        pc, insn = prev
    else:
        insn = gdb.execute("x/i 0x%x" % pc, to_string=True).split(":", 1)[1].strip()
    q["insn"] = insn
    if re.match(r"call\s+\*.*<pv_ops\+", insn):
        return "silent", "a paravirt call site: the running kernel patched it"
    glob = bool(q["object"])
    if ":" in q["object"] or (not glob and q.get("off") is None):
        return "silent", "no start address for %s" % (q["object"] or q["struct"])
    try:
        if glob:
            t = gdb.lookup_global_symbol(q["object"]) or gdb.lookup_static_symbol(q["object"])
            if t is None:
                return "silent", "no global %s in gdb" % q["object"]
            # the field's offset in the global: gdb's address of it
            q["off"] = q["address"] - int(t.value().address)
            t = t.type
        else:
            t = None
            for kind in ("struct ", "union ", ""):
                try:
                    t = gdb.lookup_type(kind + q["struct"])
                    break
                except gdb.error:
                    continue
    except gdb.error as e:
        return "silent", "gdb: %s" % e
    if t is None:
        return "silent", "no type for %s" % q["object"]
    if q["path"].endswith("(padding)"):
        # bytes no member holds: gdb's layout must hold none there either
        if inner(t, q["off"]) and inner(t, q["off"])[1] != q["path"].split(".")[-2:][0]:
            return "wrong", "gdb puts a member at %d" % q["off"]
        return "silent", "padding: no member for gdb to name"
    ch = chain(t, q["path"])
    if ch is None:
        return "wrong", "gdb finds no %s in %s" % (q["path"], t)
    foff, ftype, (unit, nbytes) = ch[-1][1], ch[-1][2], ch[-1][3]
    fend = foff + (nbytes or max(plain(ftype).sizeof, 1))
    # a bitfield's row is at its storage unit, which holds its bytes
    if unit and q["off"] <= foff and fend <= q["off"] + unit:
        pass
    elif foff != q["off"]:
        return "wrong", "gdb puts %s at %d, not %d" % (q["path"], foff, q["off"])
    if "%rip" in insn:
        m = RIP_SYM.search(insn.split("#", 1)[1] if "#" in insn else "")
        if not m:
            return "silent", "no symbol for the rip-relative operand"
        off = int(m.group(2) or 0)
        if glob and m.group(1) == q["object"] and foff <= off < fend:
            return "agree", "%s+%d" % (m.group(1), off)
        return "wrong", "the operand is %s+%d" % (m.group(1), off)
    # lea computes an address and touches no memory
    mem = [] if insn.startswith("lea") else [m for m in MEM.finditer(insn)]
    if not mem:
        return "silent", "no memory operand"
    types = var_types(pc)
    held = scope_vars(pc)
    if q.get("timer"):
        # the variables gdb places at the IP held the same registers one
        # instruction before, save the one that instruction wrote
        dst = re.search(r",%(\w+)$", insn)
        dst = REGS64.get(dst.group(1)) if dst else None
        held += [h for h in scope_vars(q["ip"]) if REGS64.get(h[1], h[1]) != dst]
        for n, ts in var_types(q["ip"]).items():
            types.setdefault(n, ts)
    seen, untyped = [], []
    for m in mem:
        disp = int(m.group(1) or "0", 0)
        base = REGS64.get(m.group(2))
        if m.group(3):
            continue
        for name, reg, k in held:
            if REGS64.get(reg, reg) != base:
                continue
            for vt in types.get(name, []):
                pt = plain(vt)
                if pt.code != gdb.TYPE_CODE_PTR:
                    continue
                target = plain(pt.target())
                if target.code == gdb.TYPE_CODE_VOID or target.sizeof == 0:
                    continue
                at = disp - k
                what = "%s (%s, %s+%d) +%d" % (name, vt, reg, k, at)
                for pre, poff, ptype, _ in ch:
                    if same(ptype, target) and foff <= poff + at < fend:
                        return "agree", "%s = %s: %s%s+%d" % (
                            name, vt, q["struct"] or q["object"], "." + pre if pre else "", at)
                # a container_of of a list head (list_for_each_entry's
                # cursor at the head): the member reached is still the
                # innermost one the path names
                gi = inner(target, at)
                hi = (str(plain(ch[-2][2])), q["path"].split(".")[-1]) if len(ch) > 1 else None
                if gi is not None and gi == hi:
                    return "agree", "%s = %s: +%d is %s.%s, as the path's innermost member" % (
                        name, vt, at, gi[0], gi[1])
                # another member of a union on the path (lockref's
                # spinlock for its lock_count): the same bytes
                if union_view(t, q["path"], target, foff, fend, at):
                    return "agree", "%s = %s: +%d is in another member of a union on %s" % (
                        name, vt, at, q["path"])
                # a pointer to a scalar (a cast: bit_spin_lock's unsigned
                # long *) names no struct; nor does one whose byte reached
                # is outside what it points to (container_of arithmetic)
                if target.code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION,
                                       gdb.TYPE_CODE_ARRAY) or not 0 <= at < target.sizeof:
                    untyped.append(what)
                else:
                    seen.append(what)
    if not seen:
        return "silent", ("no pointer variable in the base register" if not untyped else
                          "gdb's pointer names no struct there: " + "; ".join(untyped))
    return "wrong", "; ".join(seen)


def judge_site(q):
    """gdb's verdict on a call site query {"site", "var", "struct"}: the
    allocation returning to SITE is typed by variable VAR as STRUCT when gdb
    declares VAR, in scope at SITE, a pointer to STRUCT and places it in a
    register at SITE or at one of the few instructions after it."""
    pc = q["site"]
    ts = var_types(pc).get(q["var"], [])
    pts = [plain(plain(t).target()) for t in ts if plain(t).code == gdb.TYPE_CODE_PTR]
    if not ts:
        return "wrong", "gdb has no %s in scope at 0x%x" % (q["var"], pc)
    if not any(t.code == gdb.TYPE_CODE_STRUCT and t.tag == q["struct"] for t in pts):
        return "wrong", "gdb's %s is %s" % (q["var"], ", ".join(str(t) for t in ts))
    text = gdb.execute("disassemble 0x%x,0x%x" % (pc, pc + 48), to_string=True)
    for l in text.splitlines():
        m = re.match(r"\s*(?:=> )?(0x[0-9a-f]+)", l)
        if not m:
            continue
        at = int(m.group(1), 16)
        regs = [r for n, r, k in scope_vars(at) if n == q["var"] and not k]
        if regs:
            return "agree", "%s (%s) in $%s at 0x%x" % (q["var"], ts[0], regs[0], at)
    return "wrong", "gdb places %s in no register after 0x%x" % (q["var"], pc)


def lab_scope(inp, outp):
    with open(inp) as f, open(outp, "w") as o:
        for line in f:
            q = json.loads(line)
            try:
                q["gdb"], q["why"] = judge_site(q) if "site" in q else judge(q)
            except (gdb.error, RuntimeError) as e:
                q["gdb"], q["why"] = "silent", "gdb: %s" % e
            o.write(json.dumps(q) + "\n")
