/* Internal: building and writing profiles (profile.c), used by heat.c and
 * output-report.c. */
#ifndef HM_PROFILE_INT_H
#define HM_PROFILE_INT_H
#include <stdio.h>
#include "hitmap/heat.h"
#include "base/util.h"

struct hm_profile_impl {
	hm_profile p;		/* first: hm_profile * and impl * convert */
	hm_arena arena;		/* everything the profile points to */
};

/* An empty profile whose memory comes from its own arena. */
hm_profile *hm_profile_alloc(void);
hm_arena *hm_profile_arena(hm_profile *p);
/* The JSON text of a profile on an open stream. */
int hm_profile_write(const hm_profile *p, FILE *out);

struct hm_json;
/* One field's counters as members of the JSON object being written: the
 * profile, the report and layout --json spell them alike. */
void hm_profile_json_counts(struct hm_json *j, const hm_heat_counts *c);
/* The "truncated" object (its key written by the caller): the profile and
 * the report --json spell it alike. */
void hm_profile_json_truncation(struct hm_json *j, const hm_profile_truncation *t);

/* heat-member.c: whether profile path f is `path` or inside it
 * ("slots[3].hits" is in "slots"; "" is the whole object). */
int hm_profile_path_within(const char *f, const char *path);

/* The heat of one member: its fields' counters summed, their CPUs as a
 * multiset until hm_member_heat_cpus() sorts it and drops repeats.
 * Zero-initialise; nomem records a failed allocation. */
struct hm_member_heat {
	hm_heat_counts c;
	uint32_t *cpus;
	size_t n, cap;
	int nomem;
};
void hm_member_heat_add_path(struct hm_member_heat *h, const hm_profile_struct *ps,
			     const char *path);
size_t hm_member_heat_cpus(struct hm_member_heat *h);
void hm_member_heat_release(struct hm_member_heat *h);

#endif
