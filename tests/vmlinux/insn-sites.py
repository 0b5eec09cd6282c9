#!/usr/bin/env python3
"""Pick memory-operand instructions of a kernel from objdump's listing.

usage: insn-sites.py OBJDUMP_LISTING EVERY PER_FUNC > SITES

The listing is `objdump -d --no-show-raw-insn VMLINUX`, read by objdump,
never by hitmap.  Functions are taken when the CRC-32 of their name is 0
modulo EVERY (a fixed, spread-out choice: every subsystem, no file order),
and of each up to PER_FUNC instructions, spread over its body, whose one
memory operand is DISP(%REG): a 64-bit base register other than %rsp and
%rip, no index, no segment, an access (no lea, nop or prefetch).  One line
per site: "PC REG DISP MNEMONIC FUNCTION" (REG as objdump names it)."""
import re
import sys
import zlib

FUNC = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
MEM = re.compile(r"(?<![%\w:])(-?0x[0-9a-f]+|-?\d+)?\(%(\w+)\)")
BASES = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp",
         "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}
SKIP = re.compile(r"^(lea|nop|prefetch|bnd|endbr|xchg %ax)")


def sites(insns, per):
    if len(insns) <= per:
        return insns
    step = len(insns) / per
    return [insns[int(i * step)] for i in range(per)]


def main():
    every, per = int(sys.argv[2]), int(sys.argv[3])
    func, take, cand = None, False, []

    def flush():
        for pc, reg, disp, mn in sites(cand, per):
            print("0x%s %s %d %s %s" % (pc, reg, disp, mn, func))

    for line in open(sys.argv[1], errors="replace"):
        m = FUNC.match(line)
        if m:
            if take:
                flush()
            func = m.group(2)
            take = zlib.crc32(func.encode()) % every == 0
            cand = []
            continue
        if not take:
            continue
        m = INSN.match(line)
        if not m:
            continue
        pc, mn, ops = m.groups()
        if mn in ("lock", "rep", "repz", "repnz", "notrack", "cs", "ds") and ops:
            mn, _, ops = ops.partition(" ")
        ops = ops.split("#")[0].split("<")[0].strip()
        if SKIP.match(mn) or "%gs:" in ops or "%fs:" in ops or "(bad)" in ops:
            continue
        mems = MEM.findall(ops)
        if len(mems) != 1 or ",%" in ops.split("(")[1].split(")")[0]:
            continue
        disp, reg = mems[0]
        if reg not in BASES:
            continue
        cand.append((pc, reg, int(disp, 0) if disp else 0, mn))
    if take:
        flush()


main()
