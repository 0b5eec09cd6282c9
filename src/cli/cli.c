#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hitmap/debuginfo.h"
#include "hitmap/rules.h"
#include "hitmap/types.h"
#include "cli.h"
#include "options.h"
#include "options.h"

int cli_verbose;

static void vmsg(const char *what, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void vmsg(const char *what, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning", fmt, ap);
	va_end(ap);
}

int cli_usage_error(const struct hm_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
	fprintf(stderr, "try 'hitmap %s --help'\n", cmd->name);
	return HM_EXIT_USAGE;
}

int cli_unknown_struct(const char *file, const hm_types *t, const char *name)
{
	const char *near[3];
	size_t n = hm_types_similar(t, name, near, 3), len = 0;
	char buf[512];

	if (!n) {
		cli_error("%s: no struct, union or class named '%s'", file, name);
		return HM_EXIT_USAGE;
	}
	buf[0] = 0;
	for (size_t k = 0; k < n && len < sizeof(buf); k++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s'%s'", k ? ", " : "",
					near[k]);
	cli_error("%s: no struct, union or class named '%s' (did you mean %s?)", file, name, buf);
	return HM_EXIT_USAGE;
}

int cli_ambiguous_struct(const char *file, const hm_types *t, const char *name)
{
	hm_type_id ids[8];
	size_t n = hm_types_find_structs(t, name, ids, 8), len = 0;
	char buf[2048], q[512];

	if (n < 2)
		return 0;
	buf[0] = 0;
	for (size_t k = 0; k < n && k < 8 && len < sizeof(buf); k++) {
		hm_type_qualify(hm_types_get(t, ids[k]), q, sizeof(q));
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s'%s'", k ? ", " : "", q);
	}
	cli_error("%s: '%s' is ambiguous: %s%s (quote a qualified name: -C 'ns::%s')", file,
		  name, buf, n > 8 ? ", ..." : "", name);
	return HM_EXIT_USAGE;
}

int cli_help(const struct hm_cmd *cmd)
{
	cli_print_help(cmd, stdout);
	return HM_EXIT_OK;
}

int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_push(const char ***v, size_t *n, const char *s)
{
	const char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	nv[(*n)++] = s;
	*v = nv;
	return 0;
}

int cli_grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 8;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*ptr, n * elem);
	if (!p)
		return -ENOMEM;
	*ptr = p;
	*cap = n;
	return 0;
}

int cli_exit_for(int err)
{
	if (err == -EINVAL || err == -ENOENT)
		return HM_EXIT_USAGE;
	return HM_EXIT_INPUT;
}

char *cli_running_kernel(const struct hm_debuginfo_opts *dio)
{
	char *path = NULL;
	int is_btf = 0;

	if (hm_kernel_find(NULL, dio, &path, &is_btf))
		return NULL;	/* the library said what it tried */
	fprintf(stderr, "hitmap: no FILE: the running kernel, %s (%s)\n", path,
		is_btf ? "BTF" : "DWARF");
	return path;
}

/* A download from debuginfod can take minutes (a vmlinux is hundreds of
 * megabytes): one line says it started, and on a terminal it counts. */
static int progress(void *ctx, long done, long total)
{
	static int said;
	int tty = isatty(2);

	(void)ctx;
	if (!said) {
		said = 1;
		fprintf(stderr, "hitmap: asking debuginfod (DEBUGINFOD_URLS) for debug info%s",
			tty ? "" : "\n");
	}
	if (tty && total > 0)
		fprintf(stderr, "\rhitmap: debuginfod: %ld of %ld KiB%s", done / 1024,
			total / 1024, done >= total ? "\n" : "");
	return 0;
}

void cli_debuginfo_opts(const struct cli_debuginfo *d, struct hm_debuginfo_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	o->debug_dirs = d->dirs;
	o->ndebug_dirs = d->ndirs;
	o->buildid_dir = d->buildid_dir;
	o->offline = d->offline;
	o->progress = progress;
}

void cli_load_opts(struct hm_load_opts *o, int no_cache)
{
	const char *env = getenv("HITMAP_NO_CACHE");

	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	if (no_cache || (env && *env && strcmp(env, "0")))
		return;
	o->cache = 1;
	o->cache_write = 1;
}

int cli_open_types(const char *file, const struct hm_load_opts *lo, hm_binary **bin,
		   hm_types **t)
{
	int err;

	*bin = NULL;
	*t = NULL;
	if (hm_types_is_btf_file(file)) {
		/* raw BTF (/sys/kernel/btf/vmlinux): no ELF around it */
		err = hm_types_load_btf_file(file, lo, t);
	} else {
		if (!(*bin = hm_binary_open(file)))
			return HM_EXIT_INPUT;	/* the library said why */
		err = hm_types_load(*bin, lo, t);
	}
	if (err) {
		hm_binary_close(*bin);
		*bin = NULL;
		return err == -ENOMEM ? HM_EXIT_INPUT :
		       cli_exit_for(err == -ENOENT ? -EBADMSG : err);
	}
	return 0;
}

const char *cli_rules_dir(void)
{
	const char *env = getenv("HITMAP_RULES_DIR");

	return env && *env ? env : HM_RULES_DIR;
}

/* A rule file as named, else under the installed rules
 * (`--rules linux/mm.rules`), so that the kernel's rules work outside the
 * source tree.  A name found nowhere is returned as it is: the loader then
 * says it cannot be read. */
char *cli_rules_find(const char *name)
{
	char buf[4096];

	if (name[0] != '/' && access(name, F_OK) &&
	    (size_t)snprintf(buf, sizeof(buf), "%s/%s", cli_rules_dir(), name) < sizeof(buf) &&
	    !access(buf, F_OK))
		return strdup(buf);
	return strdup(name);
}

static int is_rules_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 6 && !strcmp(d->d_name + n - 6, ".rules");
}

int cli_rules_load(hm_ruleset *rs, const char *arg)
{
	char *path = cli_rules_find(arg);
	struct dirent **ents = NULL;
	struct stat st;
	int n, rc = 0, bad = 0;

	if (!path)
		return -ENOMEM;
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		rc = hm_ruleset_load(rs, path);
		free(path);
		return rc;
	}
	/* a folder of rule files (`--rules linux`): each, in name order */
	n = scandir(path, &ents, is_rules_file, alphasort);
	if (n < 0) {
		cli_error("%s: %s", path, strerror(errno));
		free(path);
		return -errno;
	}
	if (!n)
		cli_error("%s: no .rules files in this folder", path);
	for (int i = 0; i < n && rc != -ENOMEM; i++) {
		char file[4096];

		if ((size_t)snprintf(file, sizeof(file), "%s/%s", path, ents[i]->d_name) >=
		    sizeof(file))
			continue;
		rc = hm_ruleset_load(rs, file);
		bad |= rc != 0;
	}
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	free(path);
	return rc == -ENOMEM ? rc : bad || !n ? -EBADMSG : 0;
}

int cli_write_html(const char *path, int (*write)(FILE *f, void *ctx), void *ctx)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f) {
		cli_error("%s: cannot write the HTML page: %s", path, strerror(errno));
		return HM_EXIT_INPUT;
	}
	err = write(f, ctx);
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		cli_error("%s: cannot write the HTML page: %s", path, strerror(-err));
		return HM_EXIT_INPUT;
	}
	return HM_EXIT_OK;
}

int cli_refuse_partial(const char *file, const hm_profile *p)
{
	const hm_profile_truncation *t = p->truncated;

	cli_error("%s: made from a truncated recording (%s cut at offset %" PRIu64 ", %"
		  PRIu64 " samples kept): give --allow-partial to use it", file, t->what,
		  t->offset, t->samples_kept);
	return HM_EXIT_INPUT;
}
