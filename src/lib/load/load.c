/* load: hm_types_load() — pick the debug-info source and finish the table. */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/types.h"
#include "elf/debuginfo-lib.h"
#include "btf/btf.h"
#include "base/diag.h"
#include "base/util.h"
#include "dwarf/dwarf-load.h"
#include "load/typecache.h"
#include "types/types-int.h"
#include "base/opts.h"
#include "elf/binary-lib.h"

/* In `only` mode the walk stops at the units that define the names asked
 * for; a type they hold by value (a member, a C++ base class) may there be
 * only declared, its definition in a unit not read -- a base class whose key
 * function lives elsewhere (std::future_error's logic_error).  Printed as a
 * declaration it would be a 0-byte member and a false hole, unlike the same
 * type loaded whole.  The names of such declarations with no definition in
 * the table, appended to `names` (NULL-terminated, copies the caller
 * frees); returns how many were added, or -ENOMEM. */
static int undefined_held(const hm_types *t, const char ***names, size_t *n)
{
	int added = 0;

	for (size_t i = 1; i < t->types.n; i++) {
		const hm_type *ty = &t->types.v[i];
		const hm_member *m;

		if (!hm_kind_is_record(ty->kind) || ty->declaration)
			continue;
		m = hm_types_members(t, ty);
		for (uint32_t k = 0; k < ty->nr; k++) {
			hm_type_id h = (m[k].flags & HM_MEMBER_STATIC) ? 0 : hm_types_held_record(t, m[k].type);
			const hm_type *d = h ? hm_types_get(t, h) : NULL;
			const char **v;
			size_t j;

			char q[1024];

			if (!d || !d->declaration || !d->name)
				continue;
			/* by its qualified name: the definition of its own scope */
			if (hm_type_qualify(d, q, sizeof(q)) >= (int)sizeof(q) ||
			    hm_types_find_struct(t, q))
				continue;
			for (j = 0; j < *n && strcmp((*names)[j], q); j++)
				;
			if (j < *n)
				continue;
			v = realloc(*names, (*n + 2) * sizeof(*v));
			if (!v)
				return -ENOMEM;
			*names = v;
			if (!(v[*n] = strdup(q)))
				return -ENOMEM;
			v[++*n] = NULL;
			added++;
		}
	}
	return added;
}

static int load_once(hm_binary *bin, const struct hm_load_opts *opts, hm_types **out);

/* `only`, then again with the names of what that load left declared but
 * holds by value, until nothing is missing (a few rounds at most: a name
 * defined nowhere costs a walk of every unit once). */
static int load_direct(hm_binary *bin, const struct hm_load_opts *opts, hm_types **out)
{
	struct hm_load_opts o = *opts;
	const char **names;
	hm_types *t = NULL;
	size_t n = 0, asked;
	int rc;

	if (!opts->only)
		return load_once(bin, opts, out);
	while (opts->only[n])
		n++;
	asked = n;
	names = calloc(n + 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	memcpy(names, opts->only, n * sizeof(*names));
	o.only = names;
	for (unsigned round = 0;; round++) {
		int added;

		rc = load_once(bin, &o, &t);
		if (rc || round == 4 || (added = undefined_held(t, &names, &n)) == 0)
			break;
		hm_types_free(t);
		t = NULL;
		if (added < 0) {
			rc = -ENOMEM;
			break;
		}
		o.only = names;
	}
	for (size_t i = asked; i < n; i++)
		free((char *)names[i]);
	free(names);
	if (!rc)
		*out = t;
	return rc;
}

static int load_once(hm_binary *bin, const struct hm_load_opts *opts, hm_types **out)
{
	hm_types *t;
	int rc, has_btf;

	t = hm_types_new();
	if (!t)
		return -ENOMEM;
	has_btf = hmi_binary_section(bin, ".BTF", NULL) != NULL;
	if (opts->btf && has_btf) {
		rc = hm_btf_load_elf(bin, t, opts);
		goto out;
	}
	rc = hm_dwarf_load(bin, opts, t);
	/* the table holds what the walk read: the file's pages it went
	 * through (all of .debug_info, for a whole-file load) are not ours to
	 * keep resident; what is read again (a unit's scopes) comes back */
	if (!rc)
		hmi_binary_drop_pages(bin, NULL, 0);
	if (rc == -ENODATA && has_btf) {
		/* no DWARF, but the kernel's compact format is there */
		hm_types_free(t);
		if (!(t = hm_types_new()))
			return -ENOMEM;
		rc = hm_btf_load_elf(bin, t, opts);
		goto out;
	}
	if (rc == -ENODATA && !opts->no_debuginfo_lookup) {
		/* stripped, as distributions ship binaries: the DWARF is in
		 * a file of its own (hmi_debuginfo_find() reports a miss) */
		hm_binary *dbg = NULL;

		rc = hmi_debuginfo_find(bin, opts->debuginfo, &dbg, NULL);
		if (!rc && dbg != bin) {
			rc = hm_dwarf_load(dbg, opts, t);
			hm_binary_close(dbg);
		} else if (!rc) {
			rc = hm_fail(ENODATA, "%s: no types in its DWARF debug info",
				     hmi_binary_path(bin));
		}
	} else if (rc == -ENODATA)
		hm_fail(ENODATA, "%s: no DWARF debug info (stripped? install the -dbg package)",
			hmi_binary_path(bin));
	if (rc == -ENOMEM)
		hm_fail(ENOMEM, "%s: out of memory loading debug info", hmi_binary_path(bin));
	if (!rc && opts->only) {
		/* in `only` mode nested types were loaded as needed: make them
		 * findable too, after the requested ones */
		for (size_t i = 1; !rc && i < t->types.n; i++) {
			const hm_type *ty = &t->types.v[i];

			if (hm_kind_is_record(ty->kind) && !ty->declaration && ty->name)
				rc = hm_types_note_struct(t, i);
		}
	}
	if (!rc)
		rc = hm_types_finish(t);
out:
	if (!rc)
		rc = hm_types_check_chains(t, hmi_binary_path(bin));
	if (rc) {
		hm_types_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

/* A cached table passes the same checks as a loaded one (chains end, no
 * struct holds itself); failing them means a hostile cache file, not a
 * broken binary: quietly a miss. */
static int cache_hit(hm_binary *bin, const char *dir, const struct hm_load_opts *opts,
		     hm_types **out)
{
	struct hm_diag_count quiet = { 0 }, *prev;
	hm_types *t;
	int rc;

	if (hm_typecache_read(bin, dir, &t))
		return -ENOENT;
	prev = hm_diag_divert(&quiet);
	rc = hm_types_check_chains(t, hmi_binary_path(bin));
	hm_diag_divert(prev);
	if (!rc && hm_types_memo_reset(t))
		rc = -ENOMEM;	/* a miss too: the load that follows reports it */
	/* the whole table is there, but a query for some structs lists those */
	if (!rc && opts->only && hm_types_keep_structs(t, opts->only))
		rc = -ENOMEM;
	if (rc) {
		hm_diag(HM_DIAG_DEBUG, "%s: type cache ignored: it fails the type checks",
			hmi_binary_path(bin));
		hm_types_free(t);
		return -ENOENT;
	}
	*out = t;
	return 0;
}

static int load_any(hm_binary *bin, const struct hm_load_opts *user, hm_types **out);

int hm_types_load(hm_binary *bin, const struct hm_load_opts *user, hm_types **out)
{
	int rc = load_any(bin, user, out);

	/* whichever way the table came (DWARF, BTF, the cache), its lines
	 * are the file's machine's */
	if (!rc)
		(*out)->cacheline_size = hm_binary_cacheline_size(bin);
	return rc;
}

static int load_any(hm_binary *bin, const struct hm_load_opts *user, hm_types **out)
{
	struct hm_load_opts opts, full = { .sz = sizeof(full), .variables = 1 };
	struct hm_diag_count quiet = { 0 }, *prev;
	char dir[PATH_MAX];
	hm_types *t = NULL;
	int rc, use;

	if (!bin || !out || HM_OPTS_TAKE(&opts, user, hm_load_opts))
		return -EINVAL;
	/* the full load looks for a stripped file's debug info where this one would */
	full.debuginfo = opts.debuginfo;
	full.no_debuginfo_lookup = opts.no_debuginfo_lookup;
	full.threads = opts.threads;
	use = hm_typecache_usable(bin, &opts, dir, sizeof(dir));
	if ((use & HM_TYPECACHE_READ) && !cache_hit(bin, dir, &opts, out))
		return 0;
	if (!(use & HM_TYPECACHE_WRITE) || (opts.only && !hm_typecache_wanted(bin, dir)))
		return load_direct(bin, &opts, out);
	/* A miss loads everything, so that this one run serves every later
	 * query (a struct, the list, variables for report) — for named
	 * structs only from the second query of a binary on (see
	 * hm_typecache_wanted()): the first keeps the fast path.  The attempt
	 * is quiet: a table that loads with warnings or errors is not cached,
	 * and the load asked for is then done again in the open, so that its
	 * messages and its outcome are exactly those without a cache. */
	prev = hm_diag_divert(&quiet);
	rc = load_direct(bin, &full, &t);
	hm_diag_divert(prev);
	if (!rc && !quiet.n[HM_DIAG_ERROR] && !quiet.n[HM_DIAG_WARNING]) {
		hm_typecache_write(bin, dir, t);
		if (opts.only && hm_types_keep_structs(t, opts.only)) {
			hm_types_free(t);
			return -ENOMEM;
		}
		*out = t;
		return 0;
	}
	if (!rc)
		hm_types_free(t);
	hm_diag(HM_DIAG_DEBUG, "%s: not cached: the full load %s", hmi_binary_path(bin),
		rc ? "failed" : "had warnings");
	return load_direct(bin, &opts, out);
}
