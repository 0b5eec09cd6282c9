/* hitmap lint: contention-prone members sharing a line, without samples. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "check-cli.h"

static int run(int argc, char **argv)
{
	struct ccli a = { .cmd = &hm_cmd_lint, .accept = CCLI_NAMES | CCLI_RULES };
	struct hm_check_opts o;
	hm_findings *f = NULL;
	hm_binary *bin = NULL;
	hm_types *t = NULL;
	int rc, err;

	rc = ccli_parse(&a, argc, argv, 1);
	if (rc)
		return rc < 0 ? HM_EXIT_OK : rc;
	rc = ccli_load_inputs(&a, !a.nnames);
	if (!rc) {
		/* --rules lends its contended-type and placement lines
		 * here, it names no struct to load */
		free(a.only);
		a.only = NULL;
		if (a.nnames && !(a.only = calloc(a.nnames + 1, sizeof(char *))))
			rc = HM_EXIT_INPUT;
		for (size_t i = 0; !rc && i < a.nnames; i++)
			a.only[i] = a.names[i];
	}
	if (!rc)
		rc = ccli_open(&a, a.files[0], &bin, &t);
	if (rc)
		goto out;
	ccli_opts(&a, &o);	/* the rules lend their `placement` lines too */
	if (!(f = hm_findings_new())) {
		rc = HM_EXIT_INPUT;
		goto out;
	}
	err = hm_lint(t, &o, f);
	if (err) {
		rc = err == -ENOENT ? HM_EXIT_USAGE : HM_EXIT_INPUT;
		goto out;
	}
	rc = ccli_finish(&a, f, NULL);
out:
	hm_findings_free(f);
	hm_types_free(t);
	hm_binary_close(bin);
	ccli_free(&a);
	return rc;
}

static const struct cli_option options[] = {
	CCLI_OPT_CLASS_NAME,
	CCLI_OPT_OUTPUT,
	CCLI_OPT_CACHELINE_SIZE,
	CCLI_OPT_PAIR_LINES,
	CCLI_OPT_ASSUME_ALIGNED,
	CCLI_OPT_CONTENDED_TYPE,
	OPT_FLAG(0, "explain", CCLI_A(explain),
		 "under each finding, its members (offset, size, type) and every pair "
		 "with what it adds to the score"),
	CCLI_OPT_LIMIT,
	OPT_FLAG(0, "all", CCLI_A(all),
		 "every finding (without -C the text shows the 40 highest scores)"),
	OPT_LIST(0, "rules", CCLI_A(rules), CCLI_N(nrules), CCLI_MAX, "FILE",
		 "take 'contended-type' and 'placement' lines from a rule file "
		 "(repeatable)"),
	CCLI_OPT_NO_CACHE,
	CCLI_OPT_JOBS,
	CCLI_OPT_DEBUGINFO,
	OPT_END(),
};

const struct hm_cmd hm_cmd_lint = {
	.name = "lint",
	.summary = "find locks and atomics sharing cachelines, without samples",
	.usage = (const char *const[]){ "[options] [BINARY]", NULL },
	.description =
	"Report contention-prone members — locks (spinlock_t, raw_spinlock_t,\n"
	"rwlock_t, struct mutex, struct rw_semaphore, seqcount_t, seqlock_t,\n"
	"struct percpu_rw_semaphore, struct rt_mutex, struct ww_mutex, local_lock_t,\n"
	"the seqcount_LOCKNAME_t types, pthread_mutex_t, pthread_spinlock_t,\n"
	"pthread_rwlock_t) and atomics (atomic_t,\n"
	"atomic64_t, atomic_long_t, refcount_t, _Atomic, std::atomic), their typedefs,\n"
	"arrays of them and structs containing them — that share a cacheline with each\n"
	"other or with read-mostly members (pointers, const): one warning per struct\n"
	"and cacheline, naming its contention-prone members (every lock by name),\n"
	"ranked by score.  A lock or atomic is a unit: the structs inside one\n"
	"(struct rw_semaphore's, struct qspinlock) are not linted.  A pair inside a\n"
	"member whose type is a named struct is reported once, at that struct (with\n"
	"-C, it is linted too), not in every struct embedding it.  Without -C: every\n"
	"struct, the text showing the 40 highest scores unless --all or --limit.\n"
	"BINARY may be raw BTF; without it, the running kernel.\n",
	.options = options,
	.epilog =
	"score: each pair of contention-prone members on the line adds wa * wb (a\n"
	"lock weighs 2, an atomic 1), doubled when the pair shares a line wherever\n"
	"the object starts; each one with read-mostly neighbours adds its weight.\n"
	"\n"
	"Unless --assume-aligned or `placement line-aligned` for it in --rules, a\n"
	"struct whose alignment does not fix its lines is judged by the worst case:\n"
	"members closer than a line can share one.  Lines are numbered with the\n"
	"object at a line boundary; one finding per line.\n"
	"\n"
	"exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage error or\n"
	"unknown struct, 3 unreadable or malformed input\n",
	.run = run,
};
