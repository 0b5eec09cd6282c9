/* Attribution, the driver: an hm_attr and its options, the binaries the
 * user names, and the one place that frees what every part of attribution
 * made (the binaries' types, code, scopes and lines, the processes, the
 * caches, the strategies' tables). */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/attribute.h"
#include "hitmap/debuginfo.h"
#include "hitmap/binary.h"
#include "hitmap/types.h"
#include "attr/attribute-int.h"
#include "dwarf/dwarf-scope.h"
#include "elf/binary-lib.h"
#include "elf/kcore.h"
#include "elf/patchsites.h"
#include "insn/insn.h"
#include "base/diag.h"
#include "base/util.h"
#include "base/opts.h"

int hm_attr_set_load_opts(hm_attr *a, const struct hm_load_opts *opts)
{
	struct hm_load_opts o;
	char *dir = NULL;

	if (!a || HM_OPTS_TAKE(&o, opts, hm_load_opts))
		return -EINVAL;
	if (o.cache_dir && !(dir = strdup(o.cache_dir)))
		return -ENOMEM;
	free(a->opt.cache_dir);
	a->opt.cache_dir = dir;
	a->opt.load.cache = o.cache;
	a->opt.load.cache_write = o.cache_write;
	a->opt.load.cache_dir = dir;
	a->opt.load.no_debuginfo_lookup = o.no_debuginfo_lookup;
	a->opt.load.threads = o.threads;
	a->opt.load.debuginfo = NULL;
	if (o.debuginfo) {
		if (HM_OPTS_TAKE(&a->opt.dio, o.debuginfo, hm_debuginfo_opts))
			return -EINVAL;
		a->opt.load.debuginfo = &a->opt.dio;
	}
	return 0;
}

hm_attr *hm_attr_new(void)
{
	hm_attr *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->memo.cache = calloc(ATTR_CACHE, sizeof(*a->memo.cache));
	if (!a->memo.cache) {
		free(a);
		errno = ENOMEM;
		return NULL;
	}
	a->maps.kernel.pid = UINT32_MAX;
	a->opt.load = (struct hm_load_opts){ .sz = sizeof(a->opt.load), .variables = 1 };
	return a;
}

static void binent_free(struct binent *b)
{
	free(b->path);
	free(b->loads);
	free(b->vars);
	hm_lines_table_free(b->lines);
	hm_insn_ctx_free(b->insn);
	attr_answers_free(b);
	hm_scopes_free(b->scopes);
	hm_patch_sites_free(b->patch);
	attr_records_free(b);
	hm_types_free(b->types);
	if (b->own_dbg)
		hm_binary_close(b->dbg);
	hm_binary_close(b->bin);
	free(b);
}

void hm_attr_free(hm_attr *a)
{
	size_t i;

	if (!a)
		return;
	attr_prefetch_stop(a);
	free(a->opt.cache_dir);
	attr_allocs_free(a->strat.allocs);
	attr_regs_free(a);
	attr_kmem_free(a);
	/* Every binary's answers are saved before any is freed: a binary's
	 * debug file may be another entry's (a --binary of its build-id),
	 * and the files are named by it. */
	for (i = 0; i < a->bin.nbins; i++) {
		attr_binent_scopes_save(a->bin.bins[i]);
		attr_answers_save(a->bin.bins[i]);
	}
	for (i = 0; i < a->bin.nbins; i++)
		binent_free(a->bin.bins[i]);
	free(a->bin.bins);
	for (i = 0; i < a->maps.nprocs; i++) {
		free(a->maps.procs[i].images);
		free(a->maps.procs[i].anon);
		free(a->maps.procs[i].maps);
	}
	free(a->maps.procs);
	free(a->kern.kmods);
	free(a->maps.kernel.images);
	free(a->strat.objects);
	free(a->memo.cache);
	free(a->memo.recs);
	free(a->memo.ires);
	attr_insts_free(a);
	attr_pokes_free(a);
	hm_kcore_free(a->kern.kcore);
	hm_arena_free(&a->memo.rec_arena);
	hm_strtab_free(&a->memo.strs);
	free(a->opt.sysroot);
	free(a);
}

int hm_attr_set_sysroot(hm_attr *a, const char *dir)
{
	free(a->opt.sysroot);
	a->opt.sysroot = strdup(dir);
	return a->opt.sysroot ? 0 : -ENOMEM;
}

void hm_attr_set_regs_notes(hm_attr *a, hm_regs_note_fn fn, void *ctx)
{
	a->opt.regs_note = fn;
	a->opt.regs_note_ctx = ctx;
}

unsigned hm_attr_line_size(const hm_attr *a)
{
	if (a->opt.line_size)
		return a->opt.line_size;
	return a->opt.rec_line_size ? a->opt.rec_line_size : hmi_arch_cacheline_size(NULL);
}

void hm_attr_set_recording_arch(hm_attr *a, const char *arch)
{
	a->opt.rec_line_size = arch ? hmi_arch_cacheline_size(arch) : 0;
}

/* ---- binaries ---- */

/* A binary the user named: its machine decides the line size. */
static struct binent *binent_add(hm_attr *a, const char *path, hm_binary *bin, int status)
{
	struct binent *b = attr_binent_new(a, path, bin, status);

	if (b && bin && !a->opt.line_size)
		a->opt.line_size = hm_binary_cacheline_size(bin);
	return b;
}

int hm_attr_add_binary(hm_attr *a, const char *path)
{
	hm_binary *bin = hm_binary_open(path);
	struct binent *b;

	if (!bin)
		return -errno;
	b = binent_add(a, path, bin, BIN_OK);
	if (!b)
		return -ENOMEM;
	b->user = 1;
	return 0;
}

int hm_attr_set_vmlinux(hm_attr *a, const char *path)
{
	hm_binary *bin = hm_binary_open(path);

	if (!bin)
		return -errno;
	a->bin.vmlinux = binent_add(a, path, bin, BIN_OK);
	if (!a->bin.vmlinux)
		return -ENOMEM;
	a->bin.vmlinux->user = 1;
	return 0;
}
