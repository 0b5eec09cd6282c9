/* gen-c2c: writes perf.data files with perf-c2c-like load and store samples
 * (chosen data_src encodings on chosen addresses) through libhitmap's
 * writer.  Test-only: the tests prove each file with the real perf script and
 * perf c2c report, then compare hitmap's counts with perf's. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/perf_event.h>
#include "hitmap/hitmap.h"
#include "hitmap/perfwrite.h"

static const char usage[] =
"usage: gen-c2c -o FILE [options] [SPEC...]\n"
"Writes a perf.data file like `perf c2c record` makes: event 0 is\n"
"cpu/mem-loads,ldlat=30/P, event 1 cpu/mem-stores/P, sample_type\n"
"IP|TID|TIME|ADDR|ID|CPU|PERIOD|WEIGHT|DATA_SRC|PHYS_ADDR, sample_id_all.\n"
"\n"
"SPEC is KIND:ADDR[:COUNT[:CPU[:TID[:IP]]]] (numbers in C syntax; COUNT\n"
"default 1, CPU default 0, TID default the pid, IP default --ip): COUNT\n"
"samples of KIND at data address ADDR, taken at instruction IP (a kernel\n"
"address makes a kernel-mode sample).  KIND is one of\n"
"  l1hit lfb l2hit l3hit     loads hitting L1 / fill buffer / L2 / LLC\n"
"  lcl-hitm                  load, LLC hit, snoop HITM (Intel 0x07 encoding)\n"
"  rmt-hitm                  load, remote cache (REM_CCE1|HIT), snoop HITM\n"
"  rmt-hitm-skx              load, lvl_num ANY_CACHE + remote + HITM, no lvl\n"
"                            bits (Skylake and later)\n"
"  peer                      load, L2 hit, snoopx PEER\n"
"  rmt-peer                  load, remote cache (REM_CCE1|HIT), snoopx PEER\n"
"  lcl-dram rmt-dram         loads from local / remote DRAM\n"
"  unc                       uncached load\n"
"  st-l1hit st-l1miss st-na  stores: L1 hit, L1 miss, level not available\n"
"  raw=0xVALUE               load or store with this exact data_src\n"
"\n"
"Options:\n"
"  -o FILE            output file (required)\n"
"  --specs FILE       read more SPECs from FILE, one a line\n"
"  -n N               write N samples in all, cycling through the SPECs\n"
"                     (default: the sum of their COUNTs)\n"
"  --random L@BASE    with -n: spread samples over L cachelines from BASE,\n"
"                     offsets in the line chosen by a fixed pseudo-random\n"
"                     sequence; kinds cycle through the SPECs (default mix:\n"
"                     l1hit, l1hit, lcl-hitm, rmt-hitm, st-l1hit, st-l1miss)\n"
"  --pid PID          process id of every sample and record (default 4242)\n"
"  --ip ADDR          instruction address of the samples (default 0x401000)\n"
"  --text-poke ADDR:OLD:NEW\n"
"                     a PERF_RECORD_TEXT_POKE after the maps: the kernel\n"
"                     rewrote the bytes OLD (hex) at ADDR with NEW (hex)\n"
"                     (repeatable)\n"
"  --mmap START,LEN,PGOFF,PATH\n"
"                     an MMAP2 record for the process (repeatable; at a\n"
"                     kernel address: a kernel-mode map with pid -1, as\n"
"                     perf writes the kernel's and its modules'); without\n"
"                     one, an anonymous map covering the ip and every data\n"
"                     address is written so that perf finds a map\n"
"  --comm NAME        process name (default gen-c2c)\n"
"  --cpus N           number of CPUs in the header (default: highest CPU\n"
"                     used + 1, at least 2)\n"
"  --arch NAME        the machine in the header (default x86_64)\n"
"  --swap             write the file in the opposite byte order\n"
"  --one-event        a single event (loads and stores), no sample ids\n"
"  --software         software events (page-faults, minor-faults) instead of\n"
"                     the memory PMU's, their samples' data_src as written:\n"
"                     a file no kernel writes (it says \"not available\")\n"
"  --identifier       use PERF_SAMPLE_IDENTIFIER instead of PERF_SAMPLE_ID\n"
"  --weight-struct    use PERF_SAMPLE_WEIGHT_STRUCT instead of WEIGHT\n"
"  --random-ds       replace each sample's data_src with a pseudo-random\n"
"                     value (fixed seed; every field random, op one of\n"
"                     NA/LOAD/STORE/PFETCH/EXEC/LOAD|STORE, 1 in 16 at address 0)\n"
"  --host-topology    write this machine's CPU and NUMA topology (sysfs)\n"
"                     instead of one socket and one node\n"
"  --compress BLOCK[,CHUNK]\n"
"                     compress the data (zstd) in blocks of BLOCK bytes, so\n"
"                     records straddle chunks; each block's output is one\n"
"                     COMPRESSED record, or several of at most CHUNK bytes\n"
"                     (perf 6.1 reads only chunks that inflate to something)\n"
"  --compress2 BLOCK[,CHUNK]   the same with COMPRESSED2 records\n"
"  --auxtrace N      start the data with an AUXTRACE record carrying N bytes\n"
"                     of payload (not counted in its size, as perf writes it)\n"
"  --unknown-feature ID\n"
"                     add header feature bit ID with a 16-byte dummy payload\n"
"  --extra-bits MASK  add sample_type bits (fields written empty or zero:\n"
"                     READ, CALLCHAIN, RAW, BRANCH_STACK, REGS_*, ...)\n"
"  -h, --help         this text\n";

/* data_src fields (little-endian bit positions of perf_mem_data_src) */
#define OP(x)	((uint64_t)PERF_MEM_OP_##x)
#define LVL(x)	((uint64_t)PERF_MEM_LVL_##x << 5)
#define SNP(x)	((uint64_t)PERF_MEM_SNOOP_##x << 19)
#define LNUM(x)	((uint64_t)PERF_MEM_LVLNUM_##x << 33)
#define REMOTE	((uint64_t)1 << 37)
#define SNPX(x)	((uint64_t)PERF_MEM_SNOOPX_##x << 38)
#define TLB_HIT	((uint64_t)(PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT) << 26)
#define LCK_NA	((uint64_t)PERF_MEM_LOCK_NA << 24)

static const struct kind {
	const char *name;
	uint64_t ds;
	unsigned weight;
} kinds[] = {
	{ "l1hit", OP(LOAD) | LVL(HIT) | LVL(L1) | SNP(NONE) | LNUM(L1) | TLB_HIT | LCK_NA, 30 },
	{ "lfb", OP(LOAD) | LVL(HIT) | LVL(LFB) | SNP(NONE) | LNUM(LFB) | TLB_HIT | LCK_NA, 60 },
	{ "l2hit", OP(LOAD) | LVL(HIT) | LVL(L2) | SNP(NONE) | LNUM(L2) | TLB_HIT | LCK_NA, 40 },
	{ "l3hit", OP(LOAD) | LVL(HIT) | LVL(L3) | SNP(NONE) | LNUM(L3) | TLB_HIT | LCK_NA, 80 },
	{ "lcl-hitm", OP(LOAD) | LVL(HIT) | LVL(L3) | SNP(HITM) | LNUM(L3) | TLB_HIT | LCK_NA, 150 },
	{ "rmt-hitm", OP(LOAD) | LVL(HIT) | LVL(REM_CCE1) | SNP(HITM) | TLB_HIT | LCK_NA, 300 },
	{ "rmt-hitm-skx", OP(LOAD) | LNUM(ANY_CACHE) | REMOTE | SNP(HITM) | TLB_HIT | LCK_NA, 310 },
	{ "peer", OP(LOAD) | LVL(HIT) | LVL(L2) | SNPX(PEER) | LNUM(L2) | TLB_HIT | LCK_NA, 90 },
	{ "rmt-peer", OP(LOAD) | LVL(HIT) | LVL(REM_CCE1) | SNPX(PEER) | TLB_HIT | LCK_NA, 250 },
	{ "lcl-dram", OP(LOAD) | LVL(HIT) | LVL(LOC_RAM) | SNP(MISS) | LNUM(RAM) | TLB_HIT | LCK_NA, 200 },
	{ "rmt-dram", OP(LOAD) | LVL(HIT) | LVL(REM_RAM1) | SNP(HIT) | LNUM(RAM) | TLB_HIT | LCK_NA, 350 },
	{ "unc", OP(LOAD) | LVL(HIT) | LVL(UNC) | SNP(NONE) | TLB_HIT | LCK_NA, 400 },
	{ "st-l1hit", OP(STORE) | LVL(HIT) | LVL(L1) | SNP(NA) | TLB_HIT | LCK_NA, 0 },
	{ "st-l1miss", OP(STORE) | LVL(MISS) | LVL(L1) | SNP(NA) | TLB_HIT | LCK_NA, 0 },
	{ "st-na", OP(STORE) | LVL(NA) | SNP(NA) | TLB_HIT | LCK_NA, 0 },
};

struct spec {
	uint64_t ds, addr, count, ip;
	uint32_t cpu, tid;
	unsigned weight;
};

struct opts {
	const char *out, *comm;
	uint64_t n, ip, rand_lines, rand_base, extra_bits;
	uint32_t pid, cpus;
	int swap, one_event, identifier, weight_struct, random_ds, unknown_feature, software;
	int host_topology;
	const char *arch;	/* NULL: x86_64 */
	uint64_t auxtrace, compress, zchunk;
	int compress2;
	struct spec *specs;
	size_t nr_specs;
	hm_perf_mmap *maps;
	hm_perf_text_poke *pokes;
	size_t nr_pokes;
	size_t nr_maps;
};

static void die(const char *fmt, const char *arg)
	__attribute__((format(printf, 1, 0), noreturn));
static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "gen-c2c: ");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	fprintf(stderr, fmt, arg);
#pragma GCC diagnostic pop
	fprintf(stderr, "\n");
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		die("bad number '%s'", s);
	return v;
}

static void add_spec(struct opts *o, const char *arg)
{
	char *s = strdup(arg), *f[6] = { 0 }, *save = NULL, *tok;
	struct spec sp = { 0 };
	size_t i, n = 0;

	for (tok = strtok_r(s, ":", &save); tok && n < 6; tok = strtok_r(NULL, ":", &save))
		f[n++] = tok;
	if (n < 2)
		die("bad SPEC '%s' (want KIND:ADDR[:COUNT[:CPU[:TID[:IP]]]])", arg);
	if (!strncmp(f[0], "raw=", 4)) {
		sp.ds = num(f[0] + 4);
		sp.weight = 100;
	} else {
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (!strcmp(kinds[i].name, f[0]))
				break;
		if (i == sizeof(kinds) / sizeof(kinds[0]))
			die("unknown kind '%s' (see --help)", f[0]);
		sp.ds = kinds[i].ds;
		sp.weight = kinds[i].weight;
	}
	sp.addr = num(f[1]);
	sp.count = n > 2 ? num(f[2]) : 1;
	sp.cpu = n > 3 ? (uint32_t)num(f[3]) : 0;
	sp.tid = n > 4 ? (uint32_t)num(f[4]) : 0;
	sp.ip = n > 5 ? num(f[5]) : 0;
	o->specs = realloc(o->specs, (o->nr_specs + 1) * sizeof(*o->specs));
	o->specs[o->nr_specs++] = sp;
	free(s);
}

static void add_spec_file(struct opts *o, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	if (!f)
		die("cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] && line[0] != '#')
			add_spec(o, line);
	}
	fclose(f);
}

static uint8_t *hex_bytes(const char *h, uint16_t *n, const char *arg)
{
	size_t len = strlen(h), i;
	uint8_t *b = malloc(len / 2 + 1);

	if (!b || len % 2 || len / 2 > 0xffff)
		die("bad --text-poke '%s' (want ADDR:OLDHEX:NEWHEX)", arg);
	for (i = 0; i < len / 2; i++) {
		unsigned v;

		if (sscanf(h + 2 * i, "%2x", &v) != 1)
			die("bad --text-poke '%s' (want ADDR:OLDHEX:NEWHEX)", arg);
		b[i] = (uint8_t)v;
	}
	*n = (uint16_t)(len / 2);
	return b;
}

static void add_poke(struct opts *o, const char *arg)
{
	char *s = strdup(arg), *a = strchr(s, ':'), *b = a ? strchr(a + 1, ':') : NULL;
	hm_perf_text_poke t;

	if (!b)
		die("bad --text-poke '%s' (want ADDR:OLDHEX:NEWHEX)", arg);
	*a = *b = 0;
	memset(&t, 0, sizeof(t));
	t.addr = num(s);
	t.old_bytes = hex_bytes(a + 1, &t.old_len, arg);
	t.new_bytes = hex_bytes(b + 1, &t.new_len, arg);
	o->pokes = realloc(o->pokes, (o->nr_pokes + 1) * sizeof(*o->pokes));
	o->pokes[o->nr_pokes++] = t;
	free(s);
}

static void add_mmap(struct opts *o, const char *arg)
{
	char *s = strdup(arg), *a, *b, *c;
	hm_perf_mmap m;

	memset(&m, 0, sizeof(m));
	a = strchr(s, ',');
	b = a ? strchr(a + 1, ',') : NULL;
	c = b ? strchr(b + 1, ',') : NULL;
	if (!c)
		die("bad --mmap '%s' (want START,LEN,PGOFF,PATH)", arg);
	*a = *b = *c = 0;
	m.start = num(s);
	m.len = num(a + 1);
	m.pgoff = num(b + 1);
	m.filename = strdup(c + 1);
	m.prot = PROT_READ | PROT_WRITE | PROT_EXEC;
	m.flags = MAP_PRIVATE;
	m.maj = 8;
	m.min = 1;
	m.ino = 1000 + o->nr_maps;
	o->maps = realloc(o->maps, (o->nr_maps + 1) * sizeof(*o->maps));
	o->maps[o->nr_maps++] = m;
	free(s);
}

static void parse(struct opts *o, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			exit(0);
		}
		if (!strcmp(a, "--swap"))
			o->swap = 1, takes = 0;
		else if (!strcmp(a, "--one-event"))
			o->one_event = 1, takes = 0;
		else if (!strcmp(a, "--software"))
			o->software = 1, takes = 0;
		else if (!strcmp(a, "--identifier"))
			o->identifier = 1, takes = 0;
		else if (!strcmp(a, "--weight-struct"))
			o->weight_struct = 1, takes = 0;
		else if (!strcmp(a, "--random-ds"))
			o->random_ds = 1, takes = 0;
		else if (!strcmp(a, "--host-topology"))
			o->host_topology = 1, takes = 0;
		else if (a[0] != '-') {
			add_spec(o, a);
			continue;
		} else if (!v)
			die("option %s needs a value", a);
		else if (!strcmp(a, "-o"))
			o->out = v;
		else if (!strcmp(a, "-n"))
			o->n = num(v);
		else if (!strcmp(a, "--pid"))
			o->pid = (uint32_t)num(v);
		else if (!strcmp(a, "--ip"))
			o->ip = num(v);
		else if (!strcmp(a, "--comm"))
			o->comm = v;
		else if (!strcmp(a, "--cpus"))
			o->cpus = (uint32_t)num(v);
		else if (!strcmp(a, "--arch"))
			o->arch = v;
		else if (!strcmp(a, "--compress") || !strcmp(a, "--compress2")) {
			char *s = strdup(v), *comma = strchr(s, ',');

			o->zchunk = 65000;
			if (comma) {
				*comma = 0;
				o->zchunk = num(comma + 1);
			}
			o->compress = num(s);
			o->compress2 = !strcmp(a, "--compress2");
			free(s);
		}
		else if (!strcmp(a, "--auxtrace"))
			o->auxtrace = num(v);
		else if (!strcmp(a, "--unknown-feature"))
			o->unknown_feature = (int)num(v);
		else if (!strcmp(a, "--extra-bits"))
			o->extra_bits = num(v);
		else if (!strcmp(a, "--mmap"))
			add_mmap(o, v);
		else if (!strcmp(a, "--text-poke"))
			add_poke(o, v);
		else if (!strcmp(a, "--specs"))
			add_spec_file(o, v);
		else if (!strcmp(a, "--random")) {
			char *s = strdup(v), *at = strchr(s, '@');

			if (!at)
				die("bad --random '%s' (want LINES@BASE)", v);
			*at = 0;
			o->rand_lines = num(s);
			o->rand_base = num(at + 1);
			free(s);
		} else
			die("unknown option %s (see --help)", a);
		i += takes;
	}
	if (!o->out)
		die("%s", "no output file (-o FILE)");
	if (o->rand_lines && !o->n)
		die("%s", "--random needs -n N");
	if (!o->nr_specs && !o->rand_lines)
		die("%s", "nothing to write: give SPECs or -n N --random L@BASE");
}

static void default_specs(struct opts *o)
{
	static const char *mix[] = { "l1hit", "l1hit", "lcl-hitm", "rmt-hitm", "st-l1hit",
				     "st-l1miss" };
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(mix) / sizeof(mix[0]); i++) {
		snprintf(buf, sizeof(buf), "%s:0", mix[i]);
		add_spec(o, buf);
	}
}

static int add_events(hm_perf_writer *w, const struct opts *o)
{
	struct perf_event_attr a;
	uint64_t ids[2] = { 101, 202 };
	int err;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.size = sizeof(a);
	a.sample_period = 4000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
			PERF_SAMPLE_PHYS_ADDR | o->extra_bits;
	a.sample_type |= o->weight_struct ? PERF_SAMPLE_WEIGHT_STRUCT : PERF_SAMPLE_WEIGHT;
	if (!o->one_event)
		a.sample_type |= o->identifier ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID;
	a.read_format = PERF_FORMAT_ID;
	a.precise_ip = 2;
	a.sample_id_all = 1;
	a.mmap = a.comm = a.task = a.mmap2 = a.comm_exec = 1;
	a.disabled = 1;
	a.exclude_guest = 1;
	a.config = 0x1cd;	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	a.config1 = 30;		/* ldlat */
	if (o->software) {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_PAGE_FAULTS;
		a.config1 = 0;
		a.precise_ip = 0;
	}
	err = hm_perf_writer_add_event(w, &a, o->software ? "page-faults"
				       : "cpu/mem-loads,ldlat=30/P", &ids[0], 1);
	if (err < 0 || o->one_event)
		return err;
	a.config = o->software ? PERF_COUNT_SW_PAGE_FAULTS_MIN : 0x82d0;	/* MEM_INST_RETIRED.ALL_STORES */
	a.config1 = 0;
	a.mmap = a.comm = a.task = a.mmap2 = a.comm_exec = 0;
	err = hm_perf_writer_add_event(w, &a, o->software ? "minor-faults" : "cpu/mem-stores/P",
				       &ids[1], 1);
	return err < 0 ? err : 0;
}

static void free_opts(struct opts *o)
{
	size_t i;

	for (i = 0; i < o->nr_maps; i++)
		free((char *)o->maps[i].filename);
	free(o->maps);
	for (i = 0; i < o->nr_pokes; i++) {
		free((uint8_t *)o->pokes[i].old_bytes);
		free((uint8_t *)o->pokes[i].new_bytes);
	}
	free(o->pokes);
	free(o->specs);
}

static void diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	(void)ctx;
	(void)level;
	fprintf(stderr, "gen-c2c: %s\n", msg);
}

/* xorshift: a fixed sequence, so files are reproducible */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Any data_src perf might meet: each field random, hops mostly 0. */
static uint64_t random_ds(uint64_t *seed)
{
	static const uint64_t ops[] = { 1, 2, 4, 8, 16, 6 };
	uint64_t r = rnd(seed), ds;

	ds = ops[r % 6];
	ds |= (rnd(seed) & 0x3fff) << 5;			/* lvl */
	ds |= (rnd(seed) & 0x1f) << 19;				/* snoop */
	ds |= (rnd(seed) & 0x3) << 24;				/* lock */
	ds |= (rnd(seed) & 0x7f) << 26;				/* dtlb */
	ds |= (rnd(seed) & 0xf) << 33;				/* lvl_num */
	ds |= (rnd(seed) & 0x1) << 37;				/* remote */
	ds |= (rnd(seed) & 0x3) << 38;				/* snoopx */
	ds |= (rnd(seed) & 0x7) << 40;				/* blk */
	if (rnd(seed) % 4 == 0)
		ds |= (rnd(seed) & 0x7) << 43;			/* hops */
	return ds;
}

/* AUXTRACE: {header, u64 size, offset, reference, u32 idx, tid, cpu, pad}
 * then `size` payload bytes. */
static int write_auxtrace(hm_perf_writer *w, const struct opts *o)
{
	struct {
		struct perf_event_header h;
		uint64_t size, offset, reference;
		uint32_t idx, tid, cpu, pad;
	} a;
	char *payload = calloc(1, o->auxtrace ? o->auxtrace : 1);
	int err;

	if (!payload)
		return -1;
	memset(&a, 0, sizeof(a));
	a.h.type = 71;	/* PERF_RECORD_AUXTRACE */
	a.h.size = sizeof(a);
	a.size = o->auxtrace;
	a.tid = o->pid;
	memset(payload, 0xa5, o->auxtrace);
	err = hm_perf_writer_raw_payload(w, &a, sizeof(a), payload, o->auxtrace);
	free(payload);
	return err;
}

static int write_maps(hm_perf_writer *w, struct opts *o)
{
	uint64_t lo = o->ip, hi = o->ip + 1;
	hm_perf_mmap m;
	size_t i;

	for (i = 0; i < o->nr_maps; i++) {
		/* a kernel map (the kernel, a module) is perf's: pid -1 */
		o->maps[i].pid = o->maps[i].tid = o->maps[i].start >> 63 ? (uint32_t)-1 : o->pid;
		o->maps[i].cpumode = o->maps[i].start >> 63 ? PERF_RECORD_MISC_KERNEL : 0;
		if (hm_perf_writer_mmap2(w, &o->maps[i]))
			return -1;
	}
	if (o->nr_maps)
		return 0;
	for (i = 0; i < o->nr_specs; i++) {
		if (o->specs[i].addr && o->specs[i].addr < lo)
			lo = o->specs[i].addr;
		if (o->specs[i].addr >= hi)
			hi = o->specs[i].addr + 1;
	}
	if (o->rand_lines) {
		if (o->rand_base < lo)
			lo = o->rand_base;
		if (o->rand_base + o->rand_lines * 64 > hi)
			hi = o->rand_base + o->rand_lines * 64;
	}
	memset(&m, 0, sizeof(m));
	m.pid = m.tid = o->pid;
	m.start = lo & ~0xfffull;
	m.len = ((hi + 0xfff) & ~0xfffull) - m.start;
	m.prot = PROT_READ | PROT_WRITE | PROT_EXEC;
	m.flags = MAP_PRIVATE;
	m.filename = "//anon";
	return hm_perf_writer_mmap2(w, &m);
}

int main(int argc, char **argv)
{
	struct opts o;
	hm_perf_writer *w;
	struct hm_perf_features f;
	hm_sample s;
	uint64_t i, total = 0, seed = 0x9e3779b97f4a7c15ull, t = 1000000000ull;
	uint32_t maxcpu = 1;
	size_t k;
	int ret;

	memset(&o, 0, sizeof(o));
	o.pid = 4242;
	o.ip = 0x401000;
	o.comm = "gen-c2c";
	parse(&o, argc, argv);
	if (!o.nr_specs)
		default_specs(&o);
	for (k = 0; k < o.nr_specs; k++) {
		total += o.specs[k].count;
		if (o.specs[k].cpu > maxcpu)
			maxcpu = o.specs[k].cpu;
		if (!o.specs[k].tid)
			o.specs[k].tid = o.pid;
	}
	if (o.n)
		total = o.n;
	hm_set_diag(diag, NULL);
	w = hm_perf_writer_open(o.out);
	if (!w) {
		free_opts(&o);
		return 3;
	}
	if ((o.swap && hm_perf_writer_set_swap(w, 1)) ||
	    (o.compress && hm_perf_writer_set_compress(w, 3, o.compress, o.zchunk,
							   o.compress2)) ||
	    add_events(w, &o) ||
	    hm_perf_writer_comm(w, o.pid, o.pid, o.comm) || write_maps(w, &o) ||
	    (o.auxtrace && write_auxtrace(w, &o)))
		goto fail;
	for (i = 0; i < o.nr_pokes; i++)
		if (hm_perf_writer_text_poke(w, &o.pokes[i]))
			goto fail;
	memset(&s, 0, sizeof(s));
	s.pid = o.pid;
	s.ip = o.ip;
	s.period = 1;
	s.cpumode = PERF_RECORD_MISC_USER;
	for (i = 0, k = 0; i < total; i++) {
		const struct spec *sp;

		if (o.n) {
			sp = &o.specs[i % o.nr_specs];
		} else {
			while (o.specs[k].count == 0)
				k++;
			sp = &o.specs[k];
			if (--o.specs[k].count == 0)
				k++;
		}
		s.data_src = o.random_ds ? random_ds(&seed) : sp->ds;
		s.addr = sp->addr;
		if (o.rand_lines)
			s.addr = o.rand_base + rnd(&seed) % (o.rand_lines * 64);
		if (o.random_ds && rnd(&seed) % 16 == 0)
			s.addr = 0;
		s.tid = sp->tid;
		s.cpu = sp->cpu;
		s.ip = sp->ip ? sp->ip : o.ip;
		s.cpumode = s.ip >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		s.weight = sp->weight;
		s.phys_addr = 0x100000000ull + (s.addr & 0xfffffff);
		s.time = t;
		t += 1000;
		s.attr = (!o.one_event && (s.data_src & PERF_MEM_OP_STORE)) ? 1 : 0;
		if (hm_perf_writer_sample(w, &s))
			goto fail;
	}
	memset(&f, 0, sizeof(f));
	f.hostname = "gen-c2c";
	f.os_release = "6.1.0";
	f.version = "6.1.0";
	f.arch = o.arch ? o.arch : "x86_64";
	f.cpudesc = "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz";
	f.cpuid = "GenuineIntel,6,85,4";
	f.nr_cpus_avail = f.nr_cpus_online = o.cpus ? o.cpus : maxcpu + 1;
	f.total_mem_kb = 16u << 20;
	f.cmdline = "gen-c2c";
	f.with_topology = o.host_topology;
	if (o.unknown_feature) {
		static const char dummy[16] = "hitmap-unknown!";

		if (hm_perf_writer_add_feature(w, o.unknown_feature, dummy, sizeof(dummy))) {
			fprintf(stderr, "gen-c2c: cannot add feature %d\n", o.unknown_feature);
			goto fail;
		}
	}
	ret = hm_perf_writer_features(w, &f);
	if (hm_perf_writer_close(w) || ret)
		ret = 3;
	free_opts(&o);
	return ret;
fail:
	hm_perf_writer_abort(w);
	free_opts(&o);
	return 3;
}
