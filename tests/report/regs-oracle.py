#!/usr/bin/env python3
"""Independent oracle for data addresses from sampled registers.

From `objdump -d` of the program and `perf script --ns -F
tid,time,ip,sym,symoff,dso,uregs` of the recording, apply the rule of
hitmap(1), SAMPLED REGISTERS, to every sample in the program's own code and
compute the chosen instruction's effective address from the registers.
Then compare, sample by sample, with `hitmap report --regs-log` (keyed by
thread and time), and name each address's field from what the program
printed ("object NAME ADDR SIZE", "field NAME OFF SIZE").

usage: regs-oracle.py OBJDUMP PERFSCRIPT REGSLOG PROGOUT PROGNAME NM
(NM: `nm -S` of the program: a function is known only with a size)
prints: "agree N", "disagree N", "fields NAME=COUNT ...", "offfield N"
and one line per disagreement (at most 10).
"""
import re
import sys

REG64 = {}
for full, names in {
    'rax': 'eax ax al ah', 'rbx': 'ebx bx bl bh', 'rcx': 'ecx cx cl ch',
    'rdx': 'edx dx dl dh', 'rsi': 'esi si sil', 'rdi': 'edi di dil',
    'rbp': 'ebp bp bpl', 'rsp': 'esp sp spl',
}.items():
    REG64[full] = full
    for n in names.split():
        REG64[n] = full
for i in range(8, 16):
    for suf in ('', 'd', 'w', 'b'):
        REG64['r%d%s' % (i, suf)] = 'r%d' % i

MEM = re.compile(r'(%[fg]s:)?(-?0x[0-9a-f]+|-?\d+)?\((%\w+)?(?:,(%\w+))?(?:,(\d))?\)')


def parse_objdump(path):
    """{func: [(addr, mnemonic, operands)]} and {addr: func}."""
    funcs, where, cur = {}, {}, None
    for line in open(path):
        m = re.match(r'^([0-9a-f]+) <([^>]+)>:', line)
        if m:
            cur = m.group(2)
            funcs[cur] = []
            continue
        m = re.match(r'^\s+([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(\S.*)?$', line)
        if not m or cur is None or not m.group(2):
            continue
        text = m.group(2).split('#')[0].strip()
        parts = text.split(None, 1)
        mnem, ops = parts[0], parts[1] if len(parts) > 1 else ''
        while mnem in ('lock', 'rep', 'repz', 'repnz', 'notrack', 'bnd', 'data16', 'cs', 'ds') \
                and ops:
            p2 = ops.split(None, 1)
            mnem, ops = p2[0], p2[1] if len(p2) > 1 else ''
        a = int(m.group(1), 16)
        funcs[cur].append((a, mnem, ops))
        where[a] = cur
    return funcs, where


def mem_operand(mnem, ops):
    """(seg, disp, base, index, scale) or None."""
    if mnem.startswith('lea') or mnem.startswith('nop') or not ops:
        return None
    m = MEM.search(ops)
    if not m:
        return None
    disp = m.group(2)
    d = int(disp, 0) if disp else 0
    base = m.group(3)[1:] if m.group(3) else None
    index = m.group(4)[1:] if m.group(4) else None
    return (m.group(1), d, base, index, int(m.group(5)) if m.group(5) else 1)


def dest_regs(mnem, ops):
    """64-bit registers an instruction writes (what the fixtures use)."""
    out = set()
    args = [x.strip() for x in re.split(r',(?![^(]*\))', ops)] if ops else []
    if args and args[-1].startswith('%') and not mnem.startswith(('cmp', 'test')):
        r = REG64.get(args[-1][1:])
        if r:
            out.add(r)
    if mnem.startswith(('xchg', 'xadd')) and args and args[0].startswith('%'):
        r = REG64.get(args[0][1:])
        if r:
            out.add(r)
    if mnem.startswith(('push', 'pop', 'call', 'ret')):
        out.add('rsp')
    if mnem.startswith(('cmpxchg', 'cltq', 'cqto', 'cltd', 'mul', 'div', 'imul')) and len(args) < 2:
        out.update(('rax', 'rdx'))
    return out


def is_jump(mnem):
    return mnem.startswith('j')


SIZED = {}


def rule(funcs, where, pc):
    """('previous'|'at-ip', insn) or (bucket, None)."""
    f = where.get(pc)
    if f is None:
        return ('no-insn', None)
    ins = funcs[f]
    i = [k for k, x in enumerate(ins) if x[0] == pc][0]
    at = ins[i]
    prev = ins[i - 1] if i > 0 else None
    # objdump's labels for PLT stubs and sections are no function symbols:
    # no function, no instruction known before pc
    if f.startswith('.') or '@plt' in f:
        prev = None
    # a symbol without a size is no function: nothing known before pc
    if f not in SIZED or not SIZED[f][0] < pc < SIZED[f][0] + SIZED[f][1]:
        prev = None
    targets = set()
    for a, mnem, ops in ins:
        if is_jump(mnem):
            m = re.match(r'([0-9a-f]+)\b', ops.replace('*', 'x'))
            if m and not ops.startswith('*'):
                targets.add(int(m.group(1), 16))
    reason = None
    if prev is None or pc in targets:
        reason = 'branch-target'
    elif prev[1] in ('jmp', 'ret') or prev[1].startswith(('call', 'ret', 'jmp')):
        reason = 'branch-target'
    else:
        m = mem_operand(prev[1], prev[2])
        if m is None:
            reason = 'no-mem-operand'
        elif m[0]:
            reason = 'segment-base-unknown'
        elif (m[2] and m[2] != 'rip' and REG64.get(m[2]) in dest_regs(prev[1], prev[2])) or \
                (m[3] and REG64.get(m[3]) in dest_regs(prev[1], prev[2])):
            reason = 'regs-clobbered'
        else:
            return ('previous', prev)
    m = mem_operand(at[1], at[2])
    if m is not None and not m[0]:
        return ('at-ip', at)
    if reason == 'no-mem-operand' and m is not None:
        reason = 'segment-base-unknown'
    return (reason, None)


def next_addr(funcs, where, insn):
    ins = funcs[where[insn[0]]]
    for i, x in enumerate(ins):
        if x[0] == insn[0]:
            return ins[i + 1][0] if i + 1 < len(ins) else None
    return None


def samples(script, prog, syms):
    """perf script's samples of PROG in functions of syms: (tid, time in ns,
    ip, sym, offset, link address, registers by 64-bit name)."""
    for line in open(script):
        m = re.match(r'\s*(\d+)\s+(\d+)\.(\d+):\s+([0-9a-f]+)\s+(\S+)\+0x([0-9a-f]+)\s+\((\S+)\)(.*)',
                     line)
        if not m or not m.group(7).endswith('/' + prog):
            continue
        tid, t = int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3))
        ip, sym, off = int(m.group(4), 16), m.group(5), int(m.group(6), 16)
        if sym not in syms:
            continue
        regs = {}
        for k, v in re.findall(r'(\w+):(0x[0-9a-f]+)', m.group(8)):
            k = k.lower()
            regs[k if k.startswith('r') else 'r' + k] = int(v, 16)
        if 'rip' not in regs:
            continue
        yield tid, t, ip, sym, off, syms[sym] + off, regs


def effective(funcs, where, insn, regs, bias):
    """The address insn's memory operand names with these registers (a
    RIP-relative one at the runtime address: link + bias)."""
    seg, disp, base, index, scale = mem_operand(insn[1], insn[2])
    if base == 'rip':
        ea = next_addr(funcs, where, insn) + disp + bias
    else:
        ea = disp + (regs[REG64[base]] if base else 0) + \
            (regs[REG64[index]] * scale if index else 0)
    return ea & (2**64 - 1)


def main():
    objdump, script, log, progout, prog, nm = sys.argv[1:7]
    for line in open(nm):
        w = line.split()
        if len(w) == 4 and w[2] in 'tTwW':
            SIZED[w[3]] = (int(w[0], 16), int(w[1], 16))
    funcs, where = parse_objdump(objdump)
    syms = {name: ins[0][0] for name, ins in funcs.items() if ins}
    objects, fields = [], []
    for line in open(progout):
        w = line.split()
        if w[0] in ('object', 'global'):
            objects.append((w[0], w[1], int(w[2], 16), int(w[3])))
        elif w[0] == 'field':
            fields.append((w[1], int(w[2]), int(w[3])))
    hm = {}
    for line in open(log):
        t, cpu, tid, ip, rl, pc, addr = line.split()
        hm[(int(tid), int(t))] = (rl, int(pc, 16), int(addr, 16))
    agree = disagree = offfield = missing = 0
    counts = {}
    bad = []
    for tid, t, ip, sym, off, link, regs in samples(script, prog, syms):
        rl, insn = rule(funcs, where, link)
        want = (rl, 0, 0)
        if insn:
            want = (rl, insn[0], effective(funcs, where, insn, regs, ip - link))
            name = None
            for kind, oname, obase, osize in objects:
                if obase <= want[2] < obase + osize:
                    off2 = want[2] - obase
                    name = oname
                    if kind == 'object':
                        for fname, foff, fsize in fields:
                            if foff == off2:
                                name = oname + '.' + fname
                        if name == oname:
                            offfield += 1
            if name:
                counts[name] = counts.get(name, 0) + 1
        got = hm.get((tid, t))
        if got is None:
            missing += 1
            bad.append('missing %d %d %#x want %s' % (tid, t, link, want))
        elif got == want:
            agree += 1
        else:
            disagree += 1
            bad.append('%d %d ip %#x: hitmap %s %#x %#x, oracle %s %#x %#x' %
                       ((tid, t, link) + got + want))
    print('agree', agree)
    print('disagree', disagree)
    print('missing', missing)
    print('offfield', offfield)
    print('fields', ' '.join('%s=%d' % kv for kv in sorted(counts.items())))
    for b in bad[:10]:
        print(b)


if __name__ == '__main__':
    main()
