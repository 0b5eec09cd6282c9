/* Building the kernel's scope index ahead of the samples.  Attribution by
 * instruction asks the vmlinux's scopes (dwarf-scope.h) about every
 * distinct sampled IP, and the first question in a unit or a function walks
 * its DIEs: a third of a kernel report's time, on one core while the
 * others idle.  Once that index is open, a second thread reads the
 * recording again from its start, by itself, and builds the unit and the
 * subprogram of each kernel IP it meets, usually long before the run gets
 * there.  It changes no answer: hm_scopes_prefetch() undoes a build that
 * fails or says anything, for the run's own lookup to make and report, and
 * the run reads only what it would have built itself.  It starts before
 * the vmlinux's whole-file type load where it can (attr_prefetch_early()),
 * so that on two cores the two overlap instead of following each other.
 * A recording read from a pipe cannot be read twice: there is no second
 * thread then, nor with one thread allowed (hm_load_opts.threads, -j).
 *
 * Where an earlier report left the vmlinux's scope answers in the cache
 * (attr_binent_scopes()), the index answers from them and opens no DWARF:
 * no thread starts then.  The first question they do not answer opens
 * the DWARF in the run's thread, and only then does the second thread
 * start, to build what the answers did not hold (a recording of other
 * code than the one answered). */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "attr/attribute-int.h"
#include "dwarf/dwarf-scope.h"
#include "base/diag.h"
#include "base/util.h"
#include "elf/binary-lib.h"
#include "perf/perfdata-lib.h"

#define PF_BATCH 64

struct pf_seen {		/* the IPs already asked about, open addressing */
	uint64_t *v;		/* link address + 1; 0 empty */
	size_t n, mask;
};

/* 1 when ip is new (and now seen), 0 when seen, -ENOMEM. */
static int pf_note(struct pf_seen *t, uint64_t ip)
{
	size_t i;

	if (2 * (t->n + 1) > t->mask + 1) {
		size_t slots = t->mask ? 2 * (t->mask + 1) : 4096, j;
		uint64_t *v = calloc(slots, sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (j = 0; t->mask && j <= t->mask; j++) {
			if (!t->v[j])
				continue;
			for (i = hm_hash_u64(t->v[j]) & (slots - 1); v[i]; i = (i + 1) & (slots - 1))
				;
			v[i] = t->v[j];
		}
		free(t->v);
		t->v = v;
		t->mask = slots - 1;
	}
	for (i = hm_hash_u64(ip + 1) & t->mask; t->v[i]; i = (i + 1) & t->mask)
		if (t->v[i] == ip + 1)
			return 0;
	t->v[i] = ip + 1;
	t->n++;
	return 1;
}

static void *pf_main(void *arg)
{
	struct attr_prefetch *p = arg;
	struct hm_diag_count quiet = { 0 };
	struct hm_perf_reader_opts ro = { .sz = sizeof(ro), .keep_truncated = 1 };
	struct pf_seen seen = { 0 };
	hm_sample *smp = calloc(PF_BATCH, sizeof(*smp));
	hm_perf_record rec;
	hm_perf_reader *r;
	int rc = 0;

	/* every message of this thread is counted, none printed: the
	 * run's own lookups say what is to be said */
	hm_diag_divert(&quiet);
	r = smp ? hm_perf_reader_open_opts(p->path, &ro) : NULL;
	while (r && !rc && !atomic_load_explicit(&p->stop, memory_order_relaxed)) {
		size_t k = hm_perf_reader_next_samples(r, smp, PF_BATCH);

		if (!k) {
			if (hm_perf_reader_next(r, &rec) <= 0)
				break;
			if (rec.kind != HM_PERF_SAMPLE)
				continue;
			smp[0] = rec.u.sample;
			k = 1;
		}
		for (size_t i = 0; i < k && !rc; i++) {
			uint64_t link;

			/* kernel text only: the vmlinux's link address (one
			 * in a module leads to no unit of it) */
			if (!(smp[i].has & HM_HAS_IP) || smp[i].ip < p->kernel_lo)
				continue;
			link = smp[i].ip - p->kaslr;
			rc = pf_note(&seen, link);
			rc = rc == 1 ? hm_scopes_prefetch(p->scopes, link, &quiet) : rc;
		}
	}
	hm_perf_reader_close(r);
	free(seen.v);
	free(smp);
	hm_diag_divert(NULL);
	return NULL;
}

/* Whether more than one thread may work (0: one per online CPU). */
static int may_thread(const struct hm_load_opts *o)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return o->threads ? o->threads > 1 : cpus > 1;
}

void attr_prefetch_start(hm_attr *a, struct binent *b)
{
	struct attr_prefetch *p;
	const char *name;
	struct stat st;

	if (a->strat.prefetch || a->strat.prefetch_tried || b != a->bin.vmlinux || !b->scopes ||
	    !a->maps.reader)
		return;
	/* answered from the cache so far: asked again once a question the
	 * answers did not hold opened the DWARF */
	if (!hm_scopes_dwarf_ready(b->scopes))
		return;
	a->strat.prefetch_tried = 1;
	name = hmi_perf_reader_path(a->maps.reader);
	/* a file or a perf.data directory, read again; never a pipe */
	if (!may_thread(&a->opt.load) || !name || stat(name, &st) ||
	    !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
		return;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->path = strdup(name))) {
		free(p);
		return;
	}
	p->scopes = b->scopes;
	p->kaslr = a->kern.kaslr;
	p->kernel_lo = 1ull << 63;
	atomic_init(&p->stop, 0);
	if (pthread_create(&p->thread, NULL, pf_main, p)) {
		free(p->path);
		free(p);
		return;
	}
	a->strat.prefetch = p;
}

/* The scopes need no types: opened and prefetched before the vmlinux's
 * whole-file type load, the index builds beside the load rather than after
 * it, which on two cores is most of a cold kernel report's wall time.  Only
 * when the DWARF file is known without the load's search (the vmlinux has
 * it, or its debug file was found), and quietly: an open that fails or
 * says anything is undone, for the run to make and report in its order.
 * Opened as the run would open it: from the cache's answers where there
 * are some (no thread then, above), recording answers where the cache
 * takes them. */
void attr_prefetch_early(hm_attr *a, struct binent *b)
{
	struct hm_diag_count quiet = { 0 };
	int err;

	if (a->strat.prefetch || a->strat.prefetch_tried || b != a->bin.vmlinux || b->scopes ||
	    b->scopes_err || b->types || b->types_err || !a->maps.reader || !may_thread(&a->opt.load))
		return;
	if (!b->dbg && !hmi_binary_section(b->bin, ".debug_info", NULL))
		return;
	err = attr_binent_scopes_quietly(b, &quiet);
	if (err || hm_diag_count_total(&quiet)) {
		attr_binent_scopes_undo(b);
		return;
	}
	attr_prefetch_start(a, b);
}

void attr_prefetch_stop(hm_attr *a)
{
	struct attr_prefetch *p = a->strat.prefetch;

	if (!p)
		return;
	atomic_store(&p->stop, 1);
	pthread_join(p->thread, NULL);
	free(p->path);
	free(p);
	a->strat.prefetch = NULL;
}
