"""gdb's answer for each site of tests/vmlinux/insn-sites.py: run inside gdb,
  gdb -nx -batch -ex 'py SITES="in"; OUT="out"; CMP="scopes-cmp.py"' -x insn-oracle.py VMLINUX
Which variable holds the operand's base register at the PC comes from
`info scope *PC` (read as tests/types/scopes-cmp.py reads it: a
multi-location symbol by the range holding the PC); gdb lists the blocks up
to the nearest function, an inlined one included.  A variable is in the
register when its location there is the register itself ("a variable in
$R") or the register plus a constant (DW_OP_bregR N; DW_OP_stack_value:
the variable is R + N, so R points N bytes below it).  Its type is the
symbol's own in gdb's block (gdb.block_for_pc, the same blocks in the same
order); the member at the displacement is found in gdb's fields of the
pointee, as `ptype /o` prints them: the first member covering the byte,
anonymous members unnamed, arrays indexed.  One line per site:
  PC typed VAR STRUCT PATH     a pointer to a named struct or union, the
                               offset inside it
  PC offset VAR STRUCT OFF     the offset outside the pointee
  PC untyped VAR               the variable is of another type
  PC none                      no variable located in the register
  (untyped-inlined, none-inlined: the same in the body of an inlined
  function, whose callers' variables gdb does not list at the PC)
  PC outside                   no function block at the PC
  PC error MESSAGE             gdb cannot read the scope (not compared)
The innermost variable of a pointer-to-record type wins; with another
candidate of a different type the line ends in "conflict"."""
import importlib.util
import gdb

spec = importlib.util.spec_from_file_location("scopes_cmp", CMP)
sc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sc)


def record_of(t):
    """(name, type) of the struct/union a pointer type points to, or None.
    An anonymous one is named by the typedef that names it (`pgd_t`,
    `pthread_mutex_t`), as C code spells the type; one without either name
    is no record."""
    t = t.strip_typedefs()
    if t.code != gdb.TYPE_CODE_PTR:
        return None
    p = t.target().unqualified()
    r = p.strip_typedefs().unqualified()
    if r.code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
        return None
    if r.tag:
        return r.tag, r
    name = None
    while p.code == gdb.TYPE_CODE_TYPEDEF:
        name = p.name
        p = p.target().unqualified()
    return (name, r) if name else None


def member_path(t, off):
    path = ""
    while True:
        t = t.strip_typedefs()
        if t.code == gdb.TYPE_CODE_ARRAY:
            el = t.target()
            esz = el.strip_typedefs().sizeof
            if not esz:
                break
            path += "[%d]" % (off // esz)
            off %= esz
            t = el
            continue
        if t.code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            break
        hit = None
        for f in t.fields():
            if not hasattr(f, "bitpos") or f.artificial:
                continue
            start = f.bitpos // 8
            if f.bitsize:
                end = (f.bitpos + f.bitsize + 7) // 8
            else:
                end = start + f.type.strip_typedefs().sizeof
            if start <= off < end:
                hit = f
                break
        if hit is None:
            path += ".(padding)" if path else "(padding)"
            return path
        if hit.name:
            path += ("." if path else "") + hit.name
        off -= hit.bitpos // 8
        if hit.bitsize:
            break
        t = hit.type
    return path


def block_syms(pc):
    """[(name, type)] in info scope's order: innermost block up to the
    nearest function."""
    out = []
    b = gdb.block_for_pc(pc)
    while b is not None:
        for s in b:
            out.append((s.name, s.type))
        if b.function is not None:
            break
        b = b.superblock
    if b is None:
        return None, False
    # inlined: a function block further out, before the file's blocks
    inl = False
    b = b.superblock
    while b is not None and not b.is_static and not b.is_global:
        inl = inl or b.function is not None
        b = b.superblock
    return out, inl


def answer(pc, reg, disp, scopes):
    syms, inl = block_syms(pc)
    if syms is None:
        return "outside"
    sfx = "-inlined" if inl else ""
    types = {}
    for name, ty in syms:
        types.setdefault(name, []).append(ty)
    seen = {}
    cands = []
    for name, loc in scopes:
        k = seen.get(name, 0)
        seen[name] = k + 1
        if loc is None or loc[0] != "reg" or loc[1] != reg:
            continue
        tl = types.get(name, [])
        ty = tl[k] if k < len(tl) else None
        cands.append((name, loc[2], ty))
    if not cands:
        return "none" + sfx
    best = None
    kinds = set()
    for name, n, ty in cands:
        rec = record_of(ty) if ty is not None else None
        kinds.add(rec[0] if rec is not None else "-")
        if rec is not None and best is None:
            best = (name, n, rec)
    if best is None:
        return "untyped%s %s" % (sfx, cands[0][0])
    name, n, (tag, r) = best
    tail = " conflict" if len(kinds) > 1 else ""
    off = disp - n
    if off < 0 or off >= r.sizeof:
        return "offset %s %s %d%s" % (name, tag, off, tail)
    return "typed %s %s %s%s" % (name, tag, member_path(r, off), tail)


def main():
    sites = []
    for line in open(SITES):
        f = line.split()
        sites.append((int(f[0], 16), sc.REGS[f[1]], int(f[2])))
    with open(OUT, "w") as out:
        for pc, reg, disp in sites:
            try:
                text = gdb.execute("info scope *0x%x" % pc, to_string=True)
                got = sc.parse_gdb(text).get(pc, [])
                a = answer(pc, reg, disp, got)
            except gdb.error as e:
                a = "error " + str(e).replace("\n", " ")
            out.write("0x%x %s\n" % (pc, a))


main()
