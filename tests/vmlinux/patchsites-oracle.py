# gdb -batch -ex "py OUT='FILE'" -x patchsites-oracle.py VMLINUX
# The kernel's patch sites as gdb reads them: each table's bytes from the
# vmlinux (between the linker symbols around it), its entries' layout from
# the kernel's own DWARF (struct alt_instr, paravirt_patch_site,
# static_call_site, jump_entry: size and field offsets as gdb has them), so
# that a layout hitmap assumes is checked, not repeated.  Prints
# "KIND ADDR LEN" (hex address; LEN 0: the one instruction there), sorted,
# and "layout KIND SIZE" lines for what the test compares too.
import gdb
import struct

def addr(sym):
    return int(gdb.parse_and_eval("(unsigned long)&%s" % sym))

def raw(a, b):
    return bytes(gdb.selected_inferior().read_memory(a, b - a))

def fields(tname):
    t = gdb.lookup_type(tname)
    return t.sizeof, {f.name: (f.bitpos // 8, f.type.sizeof) for f in t.fields()}

def get(buf, off, fld, signed):
    o, n = fld
    code = {1: "b", 2: "h", 4: "i", 8: "q"}[n]
    return struct.unpack_from("<" + (code if signed else code.upper()), buf, off + o)[0]

out = []
lay = []
tables = [
    ("alternative", "__alt_instructions", "__alt_instructions_end", "struct alt_instr"),
    ("paravirt", "__parainstructions", "__parainstructions_end", "struct paravirt_patch_site"),
    ("static-call", "__start_static_call_sites", "__stop_static_call_sites", "struct static_call_site"),
    ("jump-label", "__start___jump_table", "__stop___jump_table", "struct jump_entry"),
    ("retpoline", "__retpoline_sites", "__retpoline_sites_end", None),
    ("return-thunk", "__return_sites", "__return_sites_end", None),
]
for kind, s, e, tname in tables:
    a, b = addr(s), addr(e)
    buf = raw(a, b)
    if tname:
        size, f = fields(tname)
    else:
        size, f = 4, None
    lay.append("layout %s %d" % (kind, size))
    assert (b - a) % size == 0, kind
    for off in range(0, b - a, size):
        at = a + off
        if kind == "alternative":
            site = at + f["instr_offset"][0] + get(buf, off, f["instr_offset"], True)
            n = get(buf, off, f["instrlen"], False)
        elif kind == "paravirt":
            site, n = get(buf, off, f["instr"], False), get(buf, off, f["len"], False)
        elif kind == "static-call":
            site, n = at + f["addr"][0] + get(buf, off, f["addr"], True), 0
        elif kind == "jump-label":
            site, n = at + f["code"][0] + get(buf, off, f["code"], True), 0
        else:
            site, n = at + struct.unpack_from("<i", buf, off)[0], 0
        if kind in ("alternative", "paravirt") and n == 0:
            continue
        out.append((site & (2**64 - 1), kind, n))
out.sort()
with open(OUT, "w") as fp:
    for l in lay:
        fp.write(l + "\n")
    for site, kind, n in out:
        fp.write("%s %x %d\n" % (kind, site, n))
