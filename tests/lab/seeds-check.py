#!/usr/bin/env python3
"""Check hitmap's reports of the lab's seed recordings against oracles that
are not hitmap: the guest's ftrace (each run's object address), perf script
(the watchpoints' addresses and samples, the kmem events and their call
sites, resolved by the vmlinux), addr2line (the source line of every
sampled instruction), gdb (gdb-scope.py: the variable and type at every
sampled instruction of every attributed row) and the field offsets the
caller took from pahole and gdb.  Then hitmap suggest, from each seed's
saved profile, must propose separating what the seed's verdict separates.

Arguments: SEED:STRUCT:OFF=PATH:... one per seed.  Environment: V (the
vmlinux), HITMAP, out (the guest's /out), GDBCACHE (gdb's answers, kept
by the vmlinux's build-id), SCRATCH (a folder for profiles and gdb's
queries).  Prints one line per check; exits 1 when any answer is wrong."""
import json
import os
import re
import subprocess
import sys

V, HITMAP, OUT = os.environ["V"], os.environ["HITMAP"], os.environ["out"]
HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = os.environ.get("SCRATCH", OUT)
GDBCACHE = os.environ.get("GDBCACHE", "")
# The KASLR offset of the boot (the guest's _stext less the vmlinux's), for
# addr2line; WATCH_ONLY: the recordings are the watchpoint ones alone.
KOFF = int(os.environ.get("KOFF", "0"), 0)
WATCH_ONLY = os.environ.get("WATCH_ONLY") == "1"
SITES = {"mmap2": "mm_alloc", "lock1s": "locks_get_lock_context",
         "lock1p": "locks_get_lock_context", "fshare": "__alloc_file"}
failed = []


def check(ok, what):
    print(("ok    " if ok else "WRONG ") + what)
    if not ok:
        failed.append(what)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def perf_script(data, fields):
    rc, o, e = run(["perf", "script", "-i", data, "--vmlinux", V, "-F", fields])
    if rc:
        sys.exit("perf script -i %s: %s" % (data, e.strip()))
    return o.splitlines()


def report(data, *extra):
    rc, o, e = run([HITMAP, "report", "--vmlinux", V, "-i", data, "--json"] + list(extra))
    if rc not in (0, 1):
        sys.exit("hitmap report -i %s exited %d: %s" % (data, rc, e.strip()))
    return json.loads(o)


def obj_of(seed, runname):
    with open(os.path.join(OUT, "%s.%s.object" % (seed, runname))) as f:
        return int(f.read().strip(), 16)


def fields(rep):
    for line in rep.get("lines", []):
        for f in line.get("fields", []):
            yield line, f


lines_cache = {}


def src_lines(ips):
    """addr2line's innermost file:line for each IP (a runtime address: the
    vmlinux's link address plus KOFF)."""
    todo = sorted(set(ips) - set(lines_cache))
    if todo:
        rc, o, e = run(["addr2line", "-e", V] + ["%x" % (ip - KOFF) for ip in todo])
        for ip, l in zip(todo, o.splitlines()):
            m = re.match(r"(.*):(\d+)", l)
            lines_cache[ip] = (os.path.basename(m.group(1)), m.group(2)) if m else None
    return lines_cache


def site_function(cs):
    """The function of a call site as perf script prints it: NAME+0xOFF when
    it resolved the address, else the address, resolved here by addr2line
    (its innermost function; a recording without perf's kernel map)."""
    if not cs.startswith("0x"):
        return cs.split("+")[0]
    rc, o, e = run(["addr2line", "-f", "-e", V, "%x" % (int(cs, 16) - KOFF)])
    return o.splitlines()[0] if o else cs


def check_kmem(seed, runname, data):
    """The object the guest's ftrace printed is a kmem_cache_alloc of the
    recording (perf script), at the expected call site."""
    obj = obj_of(seed, runname)
    hits = [l for l in perf_script(data, "comm,tid,event,trace")
            if "kmem_cache_alloc" in l and ("ptr=0x%x " % obj) in l]
    sites = [site_function(m.group(1)) for m in
             (re.search(r"call_site=(\S+)", l) for l in hits) if m]
    check(SITES[seed] in sites,
          "%s %s: perf script shows kmem_cache_alloc ptr=0x%x at %s (allocations there at %s)"
          % (seed, runname, obj, SITES[seed], ", ".join(sorted(set(sites)))))


def check_ftrace(seed, runname):
    """The object of a run that did not record its allocation: the guest's
    ftrace line of it, at the expected call site."""
    obj = obj_of(seed, runname)
    with open(os.path.join(OUT, "%s.%s.ftrace" % (seed, runname))) as f:
        hits = [l for l in f if re.search(r"\bptr=(0x)?%x\b" % obj, l)]
    sites = [m.group(1) for m in (re.search(r"call_site=(\w+)\+", l) for l in hits) if m]
    check(SITES[seed] in sites,
          "%s %s: the guest's ftrace shows kmem_cache_alloc ptr=0x%x at %s (at %s)"
          % (seed, runname, obj, SITES[seed], ", ".join(sorted(set(sites)))))


# gdb's queries: one per sampled instruction of every attributed row; the
# cache's answers are those of this version of gdb-scope.py
gdb_queries = {}
GDB_SCOPE_VERSION = 5


def ask_gdb(seed, runname, rep):
    for line, f in fields(rep):
        obj = f["object"]
        glob = "@" not in obj and ":" not in obj
        off = f["address"] - int(obj.split("@")[1], 16) if "@" in obj else None
        for loc in f.get("locations", []):
            q = {"ip": loc["ip"] - KOFF, "object": obj if glob else "",
                 "after": runname == "watch",
                 "struct": f.get("struct") or "", "path": f["path"],
                 "address": f["address"] - KOFF if glob else 0, "off": off}
            if ":" in obj:  # a function's local: no start address to compare
                q["object"] = obj
            key = json.dumps([GDB_SCOPE_VERSION, q["ip"], q["after"], q["object"], q["struct"],
                              q["path"], q["address"], q["off"]])
            w = gdb_queries.setdefault(key, {"q": q, "runs": set(), "samples": 0,
                                             "row": "%s.%s" % (obj, f["path"]),
                                             "loc": loc["location"]})
            w["runs"].add("%s %s" % (seed, runname))
            w["samples"] += loc.get("samples", 0)


def ask_site(seed, runname, site, var, struct):
    """gdb's variable and type at an allocation's call site (SITE, the
    runtime return address)."""
    q = {"site": site - KOFF, "var": var, "struct": struct}
    key = json.dumps([GDB_SCOPE_VERSION, "site", q["site"], var, struct])
    w = gdb_queries.setdefault(key, {"q": q, "runs": set(), "samples": 0, "site": True,
                                     "row": "%s at 0x%x" % (var, site), "loc": ""})
    w["runs"].add("%s %s" % (seed, runname))


def check_gdb():
    """gdb's variable and type at each sampled instruction agree with the
    field hitmap names: one gdb for every query not in the cache."""
    cache = {}
    if GDBCACHE and os.path.exists(GDBCACHE):
        with open(GDBCACHE) as f:
            for l in f:
                a = json.loads(l)
                cache[a["key"]] = a
    # a cached "wrong" is asked again: the judge may have learned since
    todo = [k for k in gdb_queries if k not in cache or cache[k]["gdb"] == "wrong"]
    if todo:
        qin, qout = os.path.join(SCRATCH, "gdb-q.jsonl"), os.path.join(SCRATCH, "gdb-a.jsonl")
        with open(qin, "w") as f:
            for k in todo:
                f.write(json.dumps(dict(gdb_queries[k]["q"], key=k)) + "\n")
        rc, o, e = run(["gdb", "-batch", "-nx", "-x", os.path.join(HERE, "gdb-scope.py"),
                        "-ex", 'python lab_scope("%s", "%s")' % (qin, qout), V])
        got = 0
        if os.path.exists(qout):
            with open(qout) as f:
                for l in f:
                    a = json.loads(l)
                    cache[a["key"]] = a
                    got += 1
        if got != len(todo):
            check(False, "gdb answered %d of %d queries: %s" % (got, len(todo), (o + e)[-400:]))
            return
        if GDBCACHE:
            with open(GDBCACHE + ".tmp", "w") as f:
                for a in cache.values():
                    f.write(json.dumps(a) + "\n")
            os.replace(GDBCACHE + ".tmp", GDBCACHE)
    sites = {"agree": 0, "wrong": 0, "silent": 0}
    for k, w in sorted(gdb_queries.items()):
        if w.get("site"):
            a = cache[k]
            sites[a["gdb"]] += 1
            print("  gdb at the call site: %s: %s, %s [%s]" % (
                w["row"], a["gdb"], a["why"], ", ".join(sorted(w["runs"]))))
    if any(sites.values()):
        check(not sites["wrong"] and not sites["silent"],
              "gdb at each call site that typed a seed object: %d agree, %d wrong"
              % (sites["agree"], sites["wrong"] + sites["silent"]))
    n = {"agree": [0, 0], "wrong": [0, 0], "silent": [0, 0]}
    for k, w in sorted(gdb_queries.items(), key=lambda kv: -kv[1]["samples"]):
        if w.get("site"):
            continue
        a = cache[k]
        n[a["gdb"]][0] += 1
        n[a["gdb"]][1] += w["samples"]
        if a["gdb"] == "wrong":
            print("  gdb disagrees: %s at %s (%s): %s [%s]"
                  % (w["row"], w["loc"], a.get("insn", ""), a["why"], ", ".join(sorted(w["runs"]))))
    check(not n["wrong"][0] and n["agree"][0] > 0,
          "gdb at each sampled instruction: %d instructions (%d samples) agree with the row's "
          "field, %d (%d) wrong, %d (%d) gdb holds no pointer variable for"
          % (n["agree"][0], n["agree"][1], n["wrong"][0], n["wrong"][1], n["silent"][0],
             n["silent"][1]))


def check_watch(seed, struct, offs):
    data = os.path.join(OUT, seed + ".watch.data")
    # the object is allocated before the watchpoints can be set: not in
    # this recording, in the guest's ftrace
    check_ftrace(seed, "watch")
    obj = obj_of(seed, "watch")
    # perf script: samples per watched address, and the CPUs behind them
    per_addr = {}
    for l in perf_script(data, "cpu,event,addr"):
        m = re.match(r"\s*\[(\d+)\]\s+mem:0x([0-9a-f]+).*?:\s+([0-9a-f]+)\s*$", l)
        if m:
            a = int(m.group(3), 16)
            n, cpus = per_addr.get(a, (0, set()))
            per_addr[a] = (n + 1, cpus | {int(m.group(1))})
    want = {obj + o: p for o, p in offs.items()}
    check(set(per_addr) <= set(want),
          "%s watch: perf script's watchpoint addresses are the fields of %s@0x%x" % (seed, struct, obj))
    fired = sum(n for n, _ in per_addr.values())
    check(fired > 0, "%s watch: %d watchpoint samples (perf script)" % (seed, fired))
    name = "%s@0x%x" % (struct, obj)
    rep = report(data, "--object", name, "--save-profile",
                 os.path.join(SCRATCH, seed + ".profile"))
    ask_gdb(seed, "watch", rep)
    rows = {}
    wrong = 0
    ips = []
    for line, f in fields(rep):
        a = f["address"]
        ok = f["object"] == name and a in want and f["path"] == want[a] \
            and f["counts"]["samples"] <= per_addr.get(a, (0,))[0]
        if not ok:
            wrong += 1
            print("  wrong row: %s.%s at 0x%x (%d samples)" % (f["object"], f["path"], a,
                                                             f["counts"]["samples"]))
        rows[f["path"]] = (line, f)
        ips += [loc["ip"] for loc in f.get("locations", [])]
    check(rows and not wrong, "%s watch: every field row is %s.FIELD at a watched address, "
          "its samples within perf script's (%d rows, %d wrong)" % (seed, name, len(rows), wrong))
    # every sampled instruction's source line is addr2line's
    lc = src_lines(ips)
    bad = 0
    for line, f in fields(rep):
        for loc in f.get("locations", []):
            m = re.search(r"\(([^():]+):(\d+)\)$", loc["location"])
            exp = lc.get(loc["ip"])
            if not m or not exp or (m.group(1), m.group(2)) != exp:
                bad += 1
                print("  location %s: addr2line says %s" % (loc["location"], exp))
    check(ips and not bad, "%s watch: %d sampled instructions at addr2line's source lines"
          % (seed, len(set(ips))))
    return rep, rows, per_addr


def verdict_of(rows, path):
    line, f = rows.get(path, (None, None))
    return (line or {}).get("verdict", ""), f


# The verdicts a timer recording may give the seed's object line.  A
# timer sees few accesses, the writes (single instructions) seldom: its
# samples may be too few for a verdict, never for the wrong one.
CLOCK_VERDICTS = {
    "mmap2": ("false and true sharing", "true sharing", "false sharing", "insufficient evidence"),
    "lock1s": ("true sharing", "insufficient evidence"),
    # one file per thread: each lock context is one thread's (one actor);
    # private once that thread is seen in 5 windows, never a sharing verdict
    "lock1p": ("private", "insufficient evidence"),
    "fshare": ("false sharing", "false and true sharing", "insufficient evidence"),
}
# The fields a timer sample must name in the seed's object.
CLOCK_FIELDS = {"mmap2": "mmap_lock.", "lock1s": "flc_", "lock1p": "flc_", "fshare": "f_"}


def object_rows(rep, name, obj, offs):
    """The report's rows of object name (at obj, its fields at offs), the
    wanted path by address, and the rows whose path is not the field at
    their address (each printed)."""
    want = {obj + o: p for o, p in offs.items()}
    rows = [(l, f) for l, f in fields(rep) if f["object"] == name]
    wrong = [f for _, f in rows if f["address"] in want and f["path"] != want[f["address"]]]
    for f in wrong:
        print("  wrong row: %s.%s at 0x%x, the field there is %s" % (
            f["object"], f["path"], f["address"], want[f["address"]]))
    return rows, want, wrong


def timer_rows(seed, struct, offs, runname):
    """The report of a timer recording with the guest's object named by
    --object: the rows of that object, those at a seed field's address
    whose path is not that field's, the seed fields named, the lines of
    the seed's fields.  gdb is asked about every attributed row."""
    data = os.path.join(OUT, "%s.%s.data" % (seed, runname))
    obj = obj_of(seed, runname)
    name = "%s@0x%x" % (struct, obj)
    # the object as the guest printed it: Linux 6.1's kmem_cache_alloc
    # event has no cache name to type it by
    # every line: the object's is seldom among the hottest ten
    rep = report(data, "--object", name, "--top", "100000")
    # gdb at every sampled instruction of every attributed line: one gdb
    # for all the queries, its answers cached by the vmlinux's build-id
    ask_gdb(seed, runname, rep)
    rows, want, wrong = object_rows(rep, name, obj, offs)
    named = sorted({f["path"] for _, f in rows if f["address"] in want and
                    f["path"] == want[f["address"]]})
    seed_lines = {l["address"]: l for l, f in rows if f["address"] in want}
    return rep, name, rows, wrong, named, seed_lines


def check_plain(seed, struct, offs, runname):
    """hitmap report --vmlinux without --object: the seed's object, where
    the recording holds its kmem_cache_alloc (Linux 6.1's has no cache
    name), is typed by the variable its call site assigns (gdb agrees,
    check_gdb()), its rows at the guest's ftrace address, none wrong.  A
    watch recording starts once the object is allocated: its rows are
    checked when there are any."""
    data = os.path.join(OUT, "%s.%s.data" % (seed, runname))
    obj = obj_of(seed, runname)
    name = "%s@0x%x" % (struct, obj)
    rep = report(data, "--top", "100000")
    ask_gdb(seed, runname, rep)
    rows, want, wrong = object_rows(rep, name, obj, offs)
    allocs = {(a.get("site", ""), a.get("site_address", 0), a.get("site_variable", ""))
              for _, f in rows for a in [f.get("allocation") or {}] if a}
    for site, addr, var in allocs:
        if var:
            ask_site(seed, runname, addr, var, struct)
    named = sorted({f["path"] for _, f in rows})
    if runname == "watch":
        check(not wrong, "%s watch: without --object, %d rows of %s (%s), %d wrong"
              % (seed, len(rows), name, ",".join(named) or "its allocation is before the "
                 "recording", len(wrong)))
        return
    typed = [(site, var) for site, _, var in allocs if var]
    check(rows and not wrong and typed,
          "%s %s: without --object, %s.{%s} (%d rows, %d wrong), typed by %s"
          % (seed, runname, name, ",".join(named), len(rows), len(wrong),
             ", ".join("%s's variable %s" % t for t in typed) or "nothing"))


def verdicts(seed_lines):
    return "; ".join("%s (%s)" % (l["verdict"], l["rule"]["id"]) for l in seed_lines.values())


def check_clock(seed, struct, offs):
    """cpu-clock alone with the interrupted registers: the data address
    comes from the sampled instruction and its registers; the object from
    the guest's ftrace."""
    check_ftrace(seed, "clock")
    rep, name, rows, wrong, named, seed_lines = timer_rows(seed, struct, offs, "clock")
    check(not wrong and any(p.startswith(CLOCK_FIELDS[seed]) for p in named),
          "%s clock: timer samples name %s.{%s} (%d rows, %d wrong, %d of %d samples)"
          % (seed, name, ",".join(named), len(rows), len(wrong),
             sum(f["counts"]["samples"] for _, f in rows), rep["samples"]))
    # the verdict of the lines of the seed's fields
    check(seed_lines and all(l.get("verdict", "").startswith(CLOCK_VERDICTS[seed])
                             for l in seed_lines.values()),
          "%s clock: the line of %s: %s" % (seed, ", ".join(named), verdicts(seed_lines)))


# The kernel's allocator and the kmem tracepoints' way into perf (each
# event a software sample: perf_tp_event, perf_swevent_event), where a
# recording with the tracepoints spends much of its time.
KMEM_CODE = re.compile(r"^(kmem_cache_(alloc|free)|kfree|__kmalloc|kmalloc|__slab_free|"
                       r"slab_free|___slab_alloc|__slab_alloc|trace_event_raw_event_kmem|"
                       r"perf_trace_|perf_tp_event|perf_swevent_event)")


def check_hitmap_record(seed, struct, offs):
    """hitmap record -a --kmem with no memory-sampling PMU in the guest:
    cpu-clock samples with the interrupted registers and the kmem
    tracepoints (perf script), the object from the guest's ftrace and among
    the file's allocations, checked as the clock recording is.  The
    tracepoints draw the timer samples to the allocator: where the
    object's fields get none, the line says so and only wrong rows fail."""
    data = os.path.join(OUT, seed + ".hitmap.data")
    check_ftrace(seed, "hitmap")
    check_kmem(seed, "hitmap", data)
    clock = kmem_code = 0
    for l in perf_script(data, "sw:event,ip,sym"):
        m = re.match(r"\s*cpu-clock:\s+[0-9a-f]+\s+(\S+)", l)
        if m:
            clock += 1
            kmem_code += bool(KMEM_CODE.match(m.group(1)))
    # the recorder's own count of what the ring buffers lost
    with open(os.path.join(OUT, seed + ".hitmap.perf.log")) as f:
        m = re.search(r"samples, (\d+) lost", f.read())
    check(clock > 0, "%s hitmap: perf script shows %d cpu-clock samples, %d of them in the "
          "allocator and the kmem tracepoints' way into perf (%s records lost)"
          % (seed, clock, kmem_code, m.group(1) if m else "?"))
    rep, name, rows, wrong, named, seed_lines = timer_rows(seed, struct, offs, "hitmap")
    on_obj = sum(f["counts"]["samples"] for _, f in rows)
    seen = any(p.startswith(CLOCK_FIELDS[seed]) for p in named)
    check(not wrong and "samples" in rep,
          "%s hitmap: timer samples name %s.{%s} (%d rows, %d wrong, %d of %d samples)%s"
          % (seed, name, ",".join(named), len(rows), len(wrong), on_obj, rep.get("samples", 0),
             "" if seen else "; too few samples on the object's fields for a row (the "
             "tracepoints took %d of %d)" % (kmem_code, clock)))
    check(all(l.get("verdict", "").startswith(CLOCK_VERDICTS[seed]) for l in seed_lines.values()),
          "%s hitmap: the line of %s: %s" % (seed, ", ".join(named) or "no seed field",
                                             verdicts(seed_lines) or "no line"))


def suggest(seed, struct, *extra, profile=None):
    prof = profile or os.path.join(SCRATCH, seed + ".profile")
    rc, o, e = run([HITMAP, "suggest", "--profile", prof, "-C", struct, "--json"] +
                   list(extra) + [V])
    if rc not in (0, 1):
        sys.exit("hitmap suggest --profile %s exited %d: %s" % (prof, rc, e.strip()))
    return json.loads(o)["structs"][0]


def regrouped(seed, struct, how):
    """The seed's profile with its truly shared groups made as another boot
    could have made them: "one", every truly shared field in one group (both
    threads took every field's line: the same actors); "alone", each field
    a group of its own (the object straddled lines, each line a group).  The
    fields and their counts stay the boot's.  Returns the file, or None when
    the profile holds fewer than two truly shared fields of the struct."""
    path = os.path.join(SCRATCH, seed + ".profile")
    p = json.load(open(path))
    s = [x for x in p["structs"] if x["name"] == struct]
    ts = sorted(f["field"] for x in s for f in x["true_shared"])
    if len(ts) < 2:
        return None
    groups = s[0].get("true_shared_groups") or [{"samples": 1, "hitm": 0, "transfers": 1,
                                                 "lines": 1, "cpus": [0, 1]}]
    base = {k: v for k, v in groups[0].items() if k != "fields"}
    s[0]["true_shared_groups"] = ([dict(base, fields=ts)] if how == "one" else
                                  [dict(base, fields=[f]) for f in ts])
    out = os.path.join(SCRATCH, "%s.%s.profile" % (seed, how))
    json.dump(p, open(out, "w"))
    return out


def best_lines(s, *members):
    """The best proposal's title and, for each member, the cachelines its
    bytes take in the proposed layout (objects start on a line)."""
    if not s.get("proposals"):
        return "no proposal", {}
    p = s["proposals"][0]
    out = {}
    for m in members:
        x = re.search(r"[\s*]%s;\s*/\*\s*(\d+)\s+(\d+)\s*\*/" % re.escape(m), p["layout"])
        if x:
            o, n = int(x.group(1)), int(x.group(2))
            out[m] = set(range(o // 64, (o + max(n, 1) - 1) // 64 + 1))
    return p["title"], out


def check_suggest(seed, struct):
    """hitmap suggest --profile from the watch report's saved profile."""
    if seed == "mmap2":
        # mm_cachep is SLAB_HWCACHE_ALIGN: every mm_struct starts a line.
        # The seed's fix: mmap_lock apart from page_table_lock
        # (rules/linux/mm.rules: warn apart mmap_lock page_table_lock).
        # map_count, written under mmap_lock by the same threads, is truly
        # shared with it: it may stay.  Two locks taken by the same threads
        # are two data, not one: whichever way the boot's timing grouped
        # the truly shared fields (two threads taking both locks make one
        # group of them, or each line its own), suggest regroups them by
        # lock, and the proposal is the same: the boot's groups, then all
        # in one group, then each field alone.
        for how in ("boot", "one", "alone"):
            prof = None if how == "boot" else regrouped(seed, struct, how)
            if how != "boot" and not prof:
                continue
            t, ln = best_lines(suggest(seed, struct, "--assume-aligned", profile=prof),
                               "mmap_lock", "page_table_lock", "map_count")
            check(len(ln) == 3 and not ln["mmap_lock"] & ln["page_table_lock"],
                  "mmap2 suggest (%s groups): the best proposal, %s, puts mmap_lock apart "
                  "from page_table_lock (lines %s)" % (
                      how, t, ", ".join("%s %s" % (m, sorted(v))
                                        for m, v in sorted(ln.items()))))
    elif seed == "fshare":
        # filp_cachep is SLAB_HWCACHE_ALIGN too
        t, ln = best_lines(suggest(seed, struct, "--assume-aligned"), "f_flags", "f_pos", "f_pos_lock")
        check(len(ln) == 3 and not ln["f_flags"] & (ln["f_pos"] | ln["f_pos_lock"]),
              "fshare suggest: the best proposal, %s, puts f_flags apart from f_pos_lock and "
              "f_pos (lines %s)" % (t, ", ".join("%s %s" % (m, sorted(v)) for m, v in sorted(ln.items()))))
    elif seed == "lock1s":
        # true sharing on the lock: the lock and the lists it guards are
        # one group, nothing to separate, and suggest says why (when the
        # boot's watch verdict found the true sharing: the profile holds
        # what the verdicts back, nothing when the evidence was too thin)
        # (the object straddles two lines when the slab put it so: the
        # boot's profile then has a group per line; "alone" makes that
        # deterministic: one lock, so one group)
        ts = "true sharing" in verdict_of(watch_rows, "flc_lock.rlock.raw_lock.val.counter")[0]
        for how in ("boot", "alone"):
            prof = None if how == "boot" else regrouped(seed, struct, how)
            if how != "boot" and not prof:
                continue
            s = suggest(seed, struct, profile=prof)
            why = s.get("nothing_to_do") or ""
            check(not s["today"]["shared"] and not s.get("proposals") and
                  (not ts or why.startswith("the contention is true sharing of ") and
                   "flc_lock" in why),
                  "lock1s suggest (%s groups): nothing to separate (%s)" % (
                      how, why or "best proposal %s" % s["proposals"][0]["title"]))
    elif seed == "lock1p":
        s = suggest(seed, struct)
        check(not s["today"]["shared"] and not s.get("proposals"),
              "lock1p suggest: nothing to do (%s)" % (
                  s.get("nothing_to_do") or "best proposal %s" % s["proposals"][0]["title"]))


for arg in sys.argv[1:]:
    parts = arg.split(":")
    seed, struct = parts[0], parts[1]
    offs = {int(p.split("=")[0]): p.split("=")[1] for p in parts[2:]}
    rep, rows, per_addr = check_watch(seed, struct, offs)
    if seed == "mmap2":
        v, f = verdict_of(rows, "mmap_lock.count.counter")
        check(f is not None and "sharing" in v and f["cpus"] == [0, 1] and f["written"],
              "mmap2 watch: the line of mmap_lock.count is written from CPUs 0 and 1: %s" % v)
        # the mm_struct is named from the instructions alone, too
        obj = obj_of(seed, "watch")
        plain = report(os.path.join(OUT, "mmap2.watch.data"))
        named = {f["path"] for _, f in fields(plain) if f["object"] == "mm_struct@0x%x" % obj}
        check("mmap_lock.count.counter" in named,
              "mmap2 watch: without --object, the instructions name mm_struct@0x%x.mmap_lock.count"
              % obj)
    elif seed == "lock1s":
        v, f = verdict_of(rows, "flc_lock.rlock.raw_lock.val.counter")
        check(f is not None and "true sharing" in v and f["cpus"] == [0, 1],
              "lock1s watch: the lock context's flc_lock: %s" % v)
    elif seed == "lock1p":
        vs = {l.get("verdict", "") for l in rep.get("lines", [])}
        check(not any("sharing" in v for v in vs),
              "lock1p watch: one file per thread, no sharing verdict: %s" % sorted(vs))
    elif seed == "fshare":
        v, f = verdict_of(rows, "f_flags")
        ve = (rows.get("f_flags", ({},))[0] or {}).get("verdict_evidence", {})
        fs = set((ve.get("false_sharing") or {}).get("fields", []))
        name = "file@0x%x" % obj_of(seed, "watch")
        check("false sharing" in v and name + ".f_flags" in fs and
              (name + ".f_pos" in fs or name + ".f_pos_lock.owner.counter" in fs),
              "fshare watch: f_flags against f_pos_lock/f_pos: %s" % v)
    if not WATCH_ONLY:
        watch_rows = rows
        check_suggest(seed, struct)
        check_clock(seed, struct, offs)
        check_hitmap_record(seed, struct, offs)
        check_plain(seed, struct, offs, "hitmap")
    check_plain(seed, struct, offs, "watch")

check_gdb()

if failed:
    print("%d wrong:" % len(failed))
    for w in failed:
        print("  " + w)
    sys.exit(1)
