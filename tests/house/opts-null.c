/* opts-null: every public function that takes an options struct takes NULL
 * as "all defaults": the same result as a zeroed struct declared with
 * HM_OPTS, never -EINVAL for the NULL itself.  And a caller's struct is
 * read up to its sz: a newer caller's zero tail is accepted, a set byte
 * past the last field this library knows is refused.
 * usage: opts-null MM_V1 MM_V2 GROUPS
 * (LIBPFM_FORCE_PMU set, so that the PMU plan is the same on any machine.) */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/binary.h"
#include "hitmap/check.h"
#include "hitmap/findings.h"
#include "hitmap/record.h"
#include "hitmap/types.h"

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		failures++; \
	} \
} while (0)

static char last_diag[256];

static void keep_diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	snprintf(last_diag, sizeof(last_diag), "%s", msg);
}

static void load(const char *path, hm_binary **bin, hm_types **t)
{
	*bin = hm_binary_open(path);
	if (!*bin || hm_types_load(*bin, NULL, t)) {
		fprintf(stderr, "cannot load %s\n", path);
		exit(1);
	}
}

/* The findings as text, for comparing two runs; the caller frees it. */
static char *text(const hm_findings *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (!out || hm_findings_print(out, f, HM_FINDINGS_TEXT, NULL) || fclose(out)) {
		fprintf(stderr, "cannot print findings\n");
		exit(1);
	}
	return buf;
}

/* fn(NULL) and fn(zeroed HM_OPTS) give the same return and findings. */
#define SAME_AS_ZEROED(what, call_null, call_zero) do { \
	hm_findings *fn = hm_findings_new(), *fz = hm_findings_new(); \
	int rn = (call_null), rz = (call_zero); \
	char *tn = text(fn), *tz = text(fz); \
	CHECK(rn == 0 && rz == 0, what ": NULL opts %d, zeroed opts %d", rn, rz); \
	CHECK(hm_findings_count(fz) > 0, what ": the fixture gives findings"); \
	CHECK(!strcmp(tn, tz), what ": NULL opts differ from zeroed ones:\n%s---\n%s", tn, tz); \
	free(tn); free(tz); \
	hm_findings_free(fn); hm_findings_free(fz); \
} while (0)

static void check_diff(const char *v1, const char *v2, const char *groups)
{
	HM_OPTS(hm_check_opts, zero);
	struct { struct hm_check_opts o; unsigned char later[8]; } big;
	hm_binary *b1, *b2, *bg;
	hm_types *t1, *t2, *tg;
	hm_findings *f;
	char want[256];

	load(v1, &b1, &t1);
	load(v2, &b2, &t2);
	load(groups, &bg, &tg);
	SAME_AS_ZEROED("hm_check", hm_check(bg, tg, NULL, fn), hm_check(bg, tg, &zero, fz));
	SAME_AS_ZEROED("hm_diff", hm_diff(t1, t2, NULL, fn), hm_diff(t1, t2, &zero, fz));
	SAME_AS_ZEROED("hm_lint", hm_lint(t1, NULL, fn), hm_lint(t1, &zero, fz));

	/* A newer caller's longer struct: a zero tail is accepted, a set byte
	 * in it refused, naming the byte. */
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	f = hm_findings_new();
	CHECK(hm_diff(t1, t2, &big.o, f) == 0, "hm_diff: newer sz, zero tail accepted");
	hm_findings_free(f);
	big.later[1] = 1;
	f = hm_findings_new();
	CHECK(hm_diff(t1, t2, &big.o, f) == -EINVAL, "hm_diff: newer sz, set tail refused");
	snprintf(want, sizeof(want), "struct hm_check_opts: byte %zu is set, past the %zu bytes this libhitmap knows",
		 offsetof(__typeof__(big), later) + 1,
		 offsetof(struct hm_check_opts, new_label) + sizeof(big.o.new_label));
	CHECK(!strcmp(last_diag, want), "set tail message: %s", last_diag);
	hm_findings_free(f);

	hm_types_free(t1); hm_types_free(t2); hm_types_free(tg);
	hm_binary_close(b1); hm_binary_close(b2); hm_binary_close(bg);
}

static void record(void)
{
	HM_OPTS(hm_timer_opts, tz);
	HM_OPTS(hm_pmu_opts, pz);
	hm_record_plan pn, pp;
	struct hm_record_stats st;
	int rn, rz;

	memset(&pn, 0xa5, sizeof(pn));
	memset(&pp, 0x5a, sizeof(pp));
	rn = hm_record_plan_timer(NULL, &pn);
	rz = hm_record_plan_timer(&tz, &pp);
	CHECK(rn == 0 && rz == 0, "hm_record_plan_timer: NULL opts %d, zeroed opts %d", rn, rz);
	CHECK(pn.nr == 1 && pn.nr == pp.nr && !memcmp(&pn.ev[0].attr, &pp.ev[0].attr, sizeof(pn.ev[0].attr)),
	      "hm_record_plan_timer: NULL opts plan differs from zeroed opts");

	memset(&pn, 0xa5, sizeof(pn));
	memset(&pp, 0x5a, sizeof(pp));
	rn = hm_record_plan_pmu(NULL, &pn);
	rz = hm_record_plan_pmu(&pz, &pp);
	CHECK(rn == 0 && rz == 0, "hm_record_plan_pmu: NULL opts %d, zeroed opts %d", rn, rz);
	CHECK(pn.nr > 0 && pn.nr == pp.nr && !strcmp(pn.pmu, pp.pmu) &&
	      !memcmp(&pn.ev[0].attr, &pp.ev[0].attr, sizeof(pn.ev[0].attr)),
	      "hm_record_plan_pmu: NULL opts plan differs from zeroed opts");

	/* The recorder's one option without a default is its output: NULL
	 * opts are taken, and that is what it says is missing. */
	last_diag[0] = 0;
	CHECK(hm_record_run(NULL, &st) == -EINVAL, "hm_record_run: NULL opts without an output");
	CHECK(!strcmp(last_diag, "record: no output file given"), "hm_record_run message: %s", last_diag);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: opts-null MM_V1 MM_V2 GROUPS\n");
		return 2;
	}
	hm_set_diag(keep_diag, NULL);
	check_diff(argv[1], argv[2], argv[3]);
	record();
	if (!failures)
		printf("opts-null: ok\n");
	return failures ? 1 : 0;
}
