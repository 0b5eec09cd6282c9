/* heat-member: the heat of one member of a layout, from a profile — the sum
 * of the counters of every profile field inside it, and their CPUs as a set
 * (what `hitmap layout --profile --json` shows per member). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "heat/heat-int.h"
#include "heat/profile-int.h"

/* Whether profile path f is `path` or inside it ("slots[3].hits" is in
 * "slots"); "" is the whole object. */
int hm_profile_path_within(const char *f, const char *path)
{
	size_t n = strlen(path);

	if (!n)
		return 1;
	if (strncmp(f, path, n))
		return 0;
	return f[n] == 0 || f[n] == '.' || f[n] == '[';
}

/* The counters summed, the CPUs as a multiset until hmi_member_heat_cpus()
 * sorts them and drops repeats; nomem records a failed allocation. */
struct hmi_member_heat {
	hm_heat_counts c;
	uint32_t *cpus;
	size_t n, cap;
	int nomem;
};

struct hmi_member_heat *hmi_member_heat_new(void)
{
	return calloc(1, sizeof(struct hmi_member_heat));
}

void hmi_member_heat_free(struct hmi_member_heat *h)
{
	if (h) {
		free(h->cpus);
		free(h);
	}
}

const hm_heat_counts *hmi_member_heat_counts(const struct hmi_member_heat *h)
{
	return &h->c;
}

int hmi_member_heat_failed(const struct hmi_member_heat *h)
{
	return h->nomem;
}

static void cpus_add(struct hmi_member_heat *h, const uint32_t *v, size_t n)
{
	if (!n || h->nomem)
		return;
	if (h->n + n > h->cap) {
		size_t cap = (h->n + n) * 2;
		uint32_t *p = realloc(h->cpus, cap * sizeof(*p));

		if (!p) {
			h->nomem = 1;
			return;
		}
		h->cpus = p;
		h->cap = cap;
	}
	memcpy(h->cpus + h->n, v, n * sizeof(*v));
	h->n += n;
}

void hmi_member_heat_add_path(struct hmi_member_heat *h, const hm_profile_struct *ps,
			     const char *path)
{
	for (size_t i = 0; ps && i < ps->nr_fields; i++) {
		if (!hm_profile_path_within(ps->fields[i].path, path))
			continue;
		heat_counts_add(&h->c, &ps->fields[i].c);
		cpus_add(h, ps->fields[i].cpus, ps->fields[i].nr_cpus);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

size_t hmi_member_heat_cpus(struct hmi_member_heat *h, const uint32_t **cpus)
{
	size_t k = 0;

	if (h->n)
		qsort(h->cpus, h->n, sizeof(*h->cpus), cmp_u32);
	for (size_t i = 0; i < h->n; i++)
		if (!i || h->cpus[i] != h->cpus[i - 1])
			h->cpus[k++] = h->cpus[i];
	h->n = k;
	*cpus = h->cpus;
	return k;
}
