/* check: the kernel's cacheline groups, verified without any rule.
 *
 * include/linux/cache.h marks a group with zero-length arrays
 * __cacheline_group_begin__G and __cacheline_group_end__G (the _aligned form
 * gives the begin marker the cacheline alignment), and the kernel asserts at
 * build time that each listed member lies between them.  Here: every begin
 * has its end, the members between the markers lie inside the span, groups
 * do not overlap, an aligned group starts a line; each span is a note. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/check.h"
#include "check/check-int.h"

#define GROUP_BEGIN "__cacheline_group_begin__"

static int has_group_marker(const hm_types *t, const hm_type *ty)
{
	const hm_member *m = hm_types_members(t, ty);
	uint32_t i;

	for (i = 0; i < ty->nr; i++)
		if (m[i].name && !strncmp(m[i].name, GROUP_BEGIN, sizeof(GROUP_BEGIN) - 1))
			return 1;
	return 0;
}

static int check_group(hm_findings *out, const hm_layout *l, const struct hmc_geom *g,
		       const hm_group *gr, const hm_group *all, size_t ngr)
{
	const hm_field *f;
	size_t n, i;
	hm_finding fi;
	char marker[300];
	int e;

	f = hm_layout_fields(l, &n);
	snprintf(marker, sizeof(marker), GROUP_BEGIN "%s", gr->name);
	if (!hm_layout_find(l, marker))
		return 0;	/* a group of an embedded struct: its own struct reports it */
	hmc_base(&fi, l, HM_SEV_ERROR, "group-unterminated");
	fi.nr_members = 1;
	fi.members[0] = gr->name;
	if (gr->unterminated)
		return hm_findings_addf(out, &fi, "group %s has no "
					"__cacheline_group_end__%s", gr->name, gr->name);
	fi.line_first = (uint32_t)(gr->offset / g->line);
	fi.line_last = (uint32_t)((gr->offset + (gr->size ? gr->size : 1) - 1) / g->line);
	if (gr->aligned && !hmc_always_aligned(g, gr->offset)) {
		fi.kind = "group-aligned";
		if (gr->offset % g->line)
			e = hm_findings_addf(out, &fi, "group %s is declared aligned but starts "
					     "%llu bytes into cacheline %u", gr->name,
					     (unsigned long long)(gr->offset % g->line),
					     fi.line_first);
		else
			e = hm_findings_addf(out, &fi, "group %s is declared aligned but the "
					     "struct alignment %u does not make it start a line",
					     gr->name, hm_layout_summary(l)->alignment);
		if (e)
			return e;
	}
	for (i = gr->first; gr->first != HM_FIELD_NONE && i <= gr->last && i < n; i++) {
		if (!f[i].size || (f[i].offset >= gr->offset &&
				   f[i].offset + f[i].size <= gr->offset + gr->size))
			continue;
		fi.kind = "group-member";
		fi.nr_members = 2;
		fi.members[1] = f[i].path;
		if ((e = hm_findings_addf(out, &fi, "%s (bytes %llu-%llu) lies outside group %s "
					  "(bytes %llu-%llu)", f[i].path,
					  (unsigned long long)f[i].offset,
					  (unsigned long long)(f[i].offset + f[i].size - 1), gr->name,
					  (unsigned long long)gr->offset,
					  (unsigned long long)(gr->offset + gr->size - 1))))
			return e;
	}
	fi.nr_members = 1;
	for (i = 0; i < ngr; i++) {
		const hm_group *o = &all[i];

		if (o <= gr || o->unterminated || !o->size || !gr->size)
			continue;
		if (o->offset < gr->offset + gr->size && gr->offset < o->offset + o->size) {
			fi.kind = "group-overlap";
			fi.nr_members = 2;
			fi.members[1] = o->name;
			if ((e = hm_findings_addf(out, &fi, "groups %s and %s overlap", gr->name,
						  o->name)))
				return e;
		}
	}
	fi.severity = HM_SEV_NOTE;
	fi.kind = "group-span";
	fi.nr_members = 1;
	if (!gr->size)
		return hm_findings_addf(out, &fi, "group %s: offset %llu, empty", gr->name,
					(unsigned long long)gr->offset);
	if (fi.line_first != fi.line_last)
		return hm_findings_addf(out, &fi, "group %s: bytes %llu-%llu (%llu), cachelines "
					"%u-%u", gr->name, (unsigned long long)gr->offset,
					(unsigned long long)(gr->offset + gr->size - 1),
					(unsigned long long)gr->size, fi.line_first, fi.line_last);
	return hm_findings_addf(out, &fi, "group %s: bytes %llu-%llu (%llu), cacheline %u",
				gr->name, (unsigned long long)gr->offset,
				(unsigned long long)(gr->offset + gr->size - 1),
				(unsigned long long)gr->size, fi.line_first);
}

int hmc_check_groups(const hm_types *t, const struct hm_check_opts *o, hm_findings *out)
{
	hm_type_id *ids;
	size_t n = hmc_sorted_structs(t, &ids), i, k, ng;
	int e = 0;

	if (!ids)
		return -ENOMEM;
	for (i = 0; i < n && !e; i++) {
		const hm_type *ty = hm_types_get(t, ids[i]);
		const hm_group *gr;
		struct hmc_geom g;
		hm_layout *l;

		if (!ty || !has_group_marker(t, ty))
			continue;
		if (o->structs) {
			for (k = 0; o->structs[k] && strcmp(o->structs[k], ty->name); k++)
				;
			if (!o->structs[k])
				continue;
		}
		l = hmc_layout(t, ids[i], o, o->assume_aligned);
		if (!l)
			continue;
		hmc_geom_init(&g, l, o, o->assume_aligned);
		gr = hm_layout_groups(l, &ng);
		for (k = 0; k < ng && !e; k++)
			e = check_group(out, l, &g, &gr[k], gr, ng);
		hm_layout_free(l);
	}
	free(ids);
	return e;
}

