/* A timer sample's data address from its sampled registers: the glue
 * between a sample and the rule in insn-addr.c.  The address then takes
 * every strategy a PEBS or watchpoint address takes. */
#include "config.h"
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/attribute.h"
#include "attr/attribute-int.h"
#include "insn/insn.h"
#include "base/util.h"

enum hm_attr_bucket attr_regs_bucket(int why)
{
	switch (why) {
	case HM_RW_NO_INSN:
		return HM_UNATTR_NO_INSN;
	case HM_RW_CLOBBERED:
		return HM_UNATTR_REGS_CLOBBERED;
	case HM_RW_SEGMENT:
		return HM_UNATTR_SEG_BASE;
	case HM_RW_BRANCH_TARGET:
		return HM_UNATTR_BRANCH_TARGET;
	case HM_RW_NO_MEMOP:
		return HM_UNATTR_NO_MEMOP;
	case HM_RW_IRQ_DEFERRED:
		return HM_UNATTR_IRQ_DEFERRED;
	case HM_RW_PATCHED:
		return HM_UNATTR_PATCHED;
	default:
		return HM_UNATTR_REGS_MISSING;
	}
}

/* The %fs base of each thread a sample showed it for: the register a load
 * of %fs:0 (the thread pointer) filled.  Valid while the mappings and
 * threads are those it was seen with (a.maps.gen): a new thread with the
 * same id, an exec or a new mapping forget it. */
struct tp_ent {
	uint32_t pid, tid;
	uint32_t gen;
	uint64_t base;
};

struct attr_regs_tp {
	struct tp_ent *v;
	size_t n, cap, last;
};

void attr_regs_free(hm_attr *a)
{
	if (a->strat.regs_tp)
		free(a->strat.regs_tp->v);
	free(a->strat.regs_tp);
	a->strat.regs_tp = NULL;
}

static struct tp_ent *tp_find(struct attr_regs_tp *t, const hm_sample *s)
{
	size_t i;

	if (!t)
		return NULL;
	if (t->last < t->n && t->v[t->last].tid == s->tid && t->v[t->last].pid == s->pid)
		return &t->v[t->last];
	for (i = 0; i < t->n; i++)
		if (t->v[i].tid == s->tid && t->v[i].pid == s->pid) {
			t->last = i;
			return &t->v[i];
		}
	return NULL;
}

/* The %fs base of s's thread: 1 and *base when known. */
static int tp_known(hm_attr *a, const hm_sample *s, uint64_t *base)
{
	const struct tp_ent *e = tp_find(a->strat.regs_tp, s);

	if (!e || e->gen != a->maps.gen)
		return 0;
	*base = e->base;
	return 1;
}

static int tp_learn(hm_attr *a, const hm_sample *s, uint64_t base)
{
	struct attr_regs_tp *t = a->strat.regs_tp;
	struct tp_ent *e;

	if (!t && !(t = a->strat.regs_tp = calloc(1, sizeof(*t))))
		return -ENOMEM;
	if (!(e = tp_find(t, s))) {
		if (hm_grow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v)))
			return -ENOMEM;
		e = &t->v[t->n++];
		e->pid = s->pid;
		e->tid = s->tid;
	}
	e->gen = a->maps.gen;
	e->base = base;
	return 0;
}

/* The registers of s at its IP: the interrupted ones for a kernel IP
 * (REGS_INTR), the user ones for a user IP (REGS_USER). */
static uint32_t sample_regs(const hm_perf_event *ev, const hm_sample *s, int kernel,
			    uint64_t regs[HM_NR_REGS])
{
	if (kernel)
		return (s->has & HM_HAS_REGS_INTR) && s->nr_regs_intr
		       ? hm_insn_regs_from_perf(ev->sample_regs_intr, s->regs_intr, s->nr_regs_intr, regs)
		       : 0;
	return (s->has & HM_HAS_REGS_USER) && s->nr_regs_user
	       ? hm_insn_regs_from_perf(ev->sample_regs_user, s->regs_user, s->nr_regs_user, regs)
	       : 0;
}

static void note(hm_attr *a, const hm_sample *s, const struct hm_regs_rule *r)
{
	hm_regs_note n = { .time = s->time, .ip = s->ip, .cpu = s->cpu, .tid = s->tid };

	if (!a->opt.regs_note)
		return;
	if (s->regs_rule == HM_RW_PREV || s->regs_rule == HM_RW_AT_IP) {
		n.rule = hm_regs_why_name(s->regs_rule);
		n.pc = r->pc;
		n.addr = s->addr;
	} else {
		n.rule = hmi_attr_bucket_name(attr_regs_bucket(s->regs_rule));
	}
	a->opt.regs_note(a->opt.regs_note_ctx, &n);
}

/* The IP is in no mapping yet (its MMAP2 later in the file): the sample
 * waits like an address does, with a copy of its registers, which are the
 * reader's until the next record. */
static int keep_regs(hm_attr *a, hm_sample *s)
{
	uint64_t *v;

	if (s->nr_regs_user && s->regs_user) {
		if (!(v = hm_arena_alloc(&a->memo.rec_arena, s->nr_regs_user * sizeof(*v))))
			return -ENOMEM;
		memcpy(v, s->regs_user, s->nr_regs_user * sizeof(*v));
		s->regs_user = v;
	}
	if (s->nr_regs_intr && s->regs_intr) {
		if (!(v = hm_arena_alloc(&a->memo.rec_arena, s->nr_regs_intr * sizeof(*v))))
			return -ENOMEM;
		memcpy(v, s->regs_intr, s->nr_regs_intr * sizeof(*v));
		s->regs_intr = v;
	}
	return 0;
}

int attr_regs_waits(hm_attr *a, const hm_sample *s)
{
	int kernel = s->cpumode == PERF_RECORD_MISC_KERNEL;

	return !s->regs_rule && (kernel ? s->nr_regs_intr : s->nr_regs_user) && !s->addr &&
	       !(s->has & HM_HAS_DATA_SRC) && !hmi_attr_mapped(a, s, s->ip);
}

int attr_regs_addr(hm_attr *a, const hm_perf_info *info, hm_sample *s)
{
	const hm_perf_event *ev = s->attr < info->nr_events ? &info->events[s->attr] : NULL;
	uint64_t regs[HM_NR_REGS], link, addr, base = 0;
	struct hm_regs_rule r;
	struct binent *b;
	uint32_t have;
	int kernel, err, seg = 0;

	if (!ev || ev->type == PERF_TYPE_BREAKPOINT || !(s->has & HM_HAS_IP) ||
	    ((s->has & HM_HAS_ADDR) && s->addr) || (s->has & HM_HAS_DATA_SRC))
		return 0;
	kernel = s->cpumode == PERF_RECORD_MISC_KERNEL;
	have = sample_regs(ev, s, kernel, regs);
	if (!have)
		return 0;
	if (hmi_attr_ip(a, s, (const void **)&b, &link))
		return keep_regs(a, s);
	if (b->status != BIN_OK || attr_binent_insn(b))
		return 0;
	err = hm_insn_regs_rule(b->insn, link, kernel, &r);
	if (err)
		return err;
	/* A load of %fs:0 shows the thread pointer; a %fs operand passed
	 * over for its segment is taken where the thread's base is known
	 * (the thread is then its instance: each has its own block). */
	if (!kernel && r.tp_reg >= 0 && ((have >> r.tp_reg) & 1) &&
	    (err = tp_learn(a, s, regs[r.tp_reg])))
		return err;
	if (!kernel && r.seg_why && tp_known(a, s, &base)) {
		r.why = r.seg_why;
		r.pc = r.seg_pc;
		r.mem = r.seg_mem;
		r.mem.seg = HM_SEG_NONE;
		seg = 1;
	}
	s->regs_rule = r.why;
	if (r.why != HM_RW_PREV && r.why != HM_RW_AT_IP) {
		note(a, s, &r);
		return 0;
	}
	/* The rule decoded the file's bytes: at a patch site they are not
	 * what ran (a paravirt call patched to a shorter direct call returns
	 * inside the file's instruction, whose tail decodes as another) */
	if (kernel && ((r.why == HM_RW_AT_IP && attr_text_patched(b, link)) ||
		       (r.why == HM_RW_PREV && (attr_text_patched(b, r.pc) ||
						attr_text_patched(b, link - 1))))) {
		s->regs_rule = HM_RW_PATCHED;
		note(a, s, &r);
		return 0;
	}
	if (hm_insn_regs_ea(&r.mem, s->ip - link, regs, have, &addr)) {
		s->regs_rule = HM_RW_NO_REGS;
		note(a, s, &r);
		return 0;
	}
	s->addr = seg ? addr + base : addr;
	s->has |= HM_HAS_ADDR;
	s->regs_access = r.mem.access;
	note(a, s, &r);
	return 0;
}
