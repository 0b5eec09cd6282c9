/* The finished accumulator's lines and rows, one accessor per thing the
 * report prints: output/ reads heat through these, so the rows' and lines'
 * storage (heat-int.h) can change without the printers noticing. */
#include "config.h"
#include <string.h>
#include "heat/heat-int.h"
#include "heat/heat-lib.h"

size_t hmi_heat_nr_lines(const hm_heat *h) { return h->nlines; }

const struct heat_line *hmi_heat_line_at(const hm_heat *h, size_t i)
{
	return i < h->nlines ? h->lines[i] : NULL;
}

size_t hmi_heat_nr_keys(const hm_heat *h) { return h->nckeys; }

void hmi_heat_key(const hm_heat *h, size_t i, const char **type, const char **object,
		  enum hm_profile_kind *kind)
{
	const struct heat_ckey *k = heat_ckey_at(h, i);

	*type = k->f->sname;
	*object = k->object;
	*kind = k->f->kind;
}

uint64_t hmi_heat_line_addr(const struct heat_line *l) { return l->addr; }
const hm_heat_counts *hmi_heat_line_counts(const struct heat_line *l) { return &l->c; }
const hm_c2c_stats *hmi_heat_line_c2c(const struct heat_line *l) { return &l->st; }
const struct heat_cpuset *hmi_heat_line_cpus(const struct heat_line *l) { return &l->cpus; }
uint32_t hmi_heat_line_nr_threads(const struct heat_line *l) { return l->tids.n; }
enum heat_verdict hmi_heat_line_verdict(const struct heat_line *l) { return l->verdict; }

void hmi_heat_line_evidence(const struct heat_line *l, struct heat_evidence *out)
{
	*out = l->ev;
}

void hmi_heat_line_cost(const struct heat_line *l, uint32_t i, uint32_t *cpu, uint64_t *line,
			uint64_t *all)
{
	const struct heat_cost *c = &l->ev.cost[i];

	*cpu = c->cpu;
	*line = c->line;
	*all = c->all;
}

const char *hmi_heat_verdict_name(enum heat_verdict v) { return heat_verdict_name(v); }
const char *hmi_heat_rule_text(enum heat_rule r) { return heat_rule_text(r); }

const struct heat_row *hmi_heat_line_rows(const struct heat_line *l) { return l->rows; }
const struct heat_row *hmi_heat_row_next(const struct heat_row *r) { return r->next; }

const char *hmi_heat_row_type(const struct heat_row *r) { return r->sname; }
const char *hmi_heat_row_object(const struct heat_row *r) { return r->object; }
const char *hmi_heat_row_path(const struct heat_row *r) { return r->path; }
const char *hmi_heat_row_strategy(const struct heat_row *r) { return r->strategy; }
enum hm_profile_kind hmi_heat_row_kind(const struct heat_row *r) { return r->kind; }
uint64_t hmi_heat_row_object_base(const struct heat_row *r) { return r->obj_base; }
uint64_t hmi_heat_row_offset(const struct heat_row *r) { return r->foff; }
uint64_t hmi_heat_row_size(const struct heat_row *r) { return r->fsize; }
int hmi_heat_row_container_unknown(const struct heat_row *r) { return r->container_unknown; }
const hm_heat_counts *hmi_heat_row_counts(const struct heat_row *r) { return &r->c; }
const struct heat_cpuset *hmi_heat_row_cpus(const struct heat_row *r) { return &r->cpus; }
uint32_t hmi_heat_row_nr_threads(const struct heat_row *r) { return r->tids.n; }
int hmi_heat_row_written(const struct heat_row *r) { return heat_row_written(r); }
uint32_t hmi_heat_row_group(const struct heat_row *r) { return r->group; }

int hmi_heat_row_in_part(const struct heat_row *r, int true_sharing)
{
	return true_sharing ? r->in_ts : r->in_fs;
}

uint32_t hmi_heat_row_ips(const struct heat_row *r, struct hmi_heat_ip out[HEAT_IPS])
{
	uint32_t i;

	for (i = 0; i < r->nips && i < HEAT_IPS; i++)
		out[i] = (struct hmi_heat_ip){ r->ips[i].bin, r->ips[i].link, r->ips[i].ip,
					       r->ips[i].n };
	return i;
}

uint64_t hmi_heat_row_ip_other(const struct heat_row *r) { return r->ip_other; }

uint32_t hmi_heat_cpus_count(const struct heat_cpuset *s) { return s->count; }

int64_t hmi_heat_cpus_next(const struct heat_cpuset *s, int64_t after)
{
	uint64_t c = (uint64_t)(after + 1);

	for (uint32_t i = (uint32_t)(c / 64); i < s->nw; i++, c = (uint64_t)i * 64) {
		uint64_t w = heat_cpuset_word(s, i) >> (c % 64);

		if (w)
			return (int64_t)(c + (uint64_t)__builtin_ctzll(w));
	}
	return -1;
}
