/* Internal to libhitmap, shared between its folders: what the printers in
 * output/ read of heat/ beyond hitmap/heat.h — a member's heat from a
 * profile (heat-member.c), the JSON spelling of counters (profile.c), and
 * the finished accumulator's lines and rows (heat-iter.c) — through
 * accessors, so that heat's storage stays its own. */
#ifndef HM_HEAT_LIB_H
#define HM_HEAT_LIB_H
#include "hitmap/heat.h"

struct hm_json;

/* One field's counters as members of the JSON object being written: the
 * profile, the report and the layout's JSON spell them alike. */
void hmi_profile_json_counts(struct hm_json *j, const hm_heat_counts *c);
/* The "truncated" object (its key written by the caller): the profile and
 * the report's JSON spell it alike. */
void hmi_profile_json_truncation(struct hm_json *j, const hm_profile_truncation *t);

/* The heat of one member: the counters of the profile fields inside it
 * summed, their CPUs as a set.  NULL on ENOMEM. */
struct hmi_member_heat;
struct hmi_member_heat *hmi_member_heat_new(void);
void hmi_member_heat_free(struct hmi_member_heat *h);
/* Add every field of ps that is `path` or inside it ("" is the whole
 * object); ps may be NULL. */
void hmi_member_heat_add_path(struct hmi_member_heat *h, const hm_profile_struct *ps,
			      const char *path);
const hm_heat_counts *hmi_member_heat_counts(const struct hmi_member_heat *h);
/* The CPUs in increasing order, each once; returns how many. */
size_t hmi_member_heat_cpus(struct hmi_member_heat *h, const uint32_t **cpus);
/* Whether an allocation failed (the CPUs are then incomplete). */
int hmi_member_heat_failed(const struct hmi_member_heat *h);

#endif
