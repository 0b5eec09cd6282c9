/* The hitmap command: shared pieces of the subcommands.  Each subcommand lives
 * in its own cmd-NAME.c and exports one `const struct hm_cmd hm_cmd_NAME`. */
#ifndef HM_CLI_H
#define HM_CLI_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/heat.h"
#include "hitmap/rules.h"
#include "hitmap/types.h"

enum {
	HM_EXIT_OK = 0,		/* ran, nothing at or above --fail-on */
	HM_EXIT_FINDINGS = 1,	/* findings at or above --fail-on */
	HM_EXIT_USAGE = 2,	/* bad command line, unknown struct asked for */
	HM_EXIT_INPUT = 3,	/* input unreadable or malformed */
};

struct cli_option;

/* `hitmap NAME --help` is written from usage, description, options and
 * epilog (see options.h); options is also what the command parses. */
struct hm_cmd {
	const char *name;
	const char *summary;	/* one line for `hitmap --help` */
	const char *const *usage;	/* synopsis lines after "hitmap NAME", NULL-ended */
	const char *description;	/* free text before the options */
	const struct cli_option *options;
	const char *epilog;	/* free text after the options (exit status) */
	int (*run)(int argc, char **argv);	/* argv[0] is the subcommand name */
};

extern const struct hm_cmd hm_cmd_layout, hm_cmd_report, hm_cmd_check, hm_cmd_lint,
	hm_cmd_diff, hm_cmd_suggest, hm_cmd_record, hm_cmd_profile;

/* -v: the library's debug messages (where debug info came from, cache
 * decisions) go to stderr too. */
extern int cli_verbose;
/* Non-zero: the library's diagnostics are dropped (a call whose failure
 * the command handles itself, e.g. probing for a PMU). */
extern int cli_diag_muted;

/* With no FILE: the running kernel's vmlinux with DWARF, else its BTF
 * (hm_kernel_find()), said in one line on stderr.  malloc'ed; NULL after
 * the error was printed. */
struct hm_debuginfo_opts;
char *cli_running_kernel(const struct hm_debuginfo_opts *dio);

/* Load FILE's types: an ELF file (its DWARF, a separate debug file's, or
 * its .BTF) or a raw BTF file such as /sys/kernel/btf/vmlinux (then *bin is
 * NULL: no symbols, no machine).  0, or an exit status after the message;
 * on failure nothing is left open. */
int cli_open_types(const char *file, const struct hm_load_opts *lo, hm_binary **bin,
		   hm_types **t);

/* Where the installed rule files are: $HITMAP_RULES_DIR, else
 * $(pkgdatadir)/rules. */
const char *cli_rules_dir(void);
/* NAME as given when it exists (or is absolute), else under cli_rules_dir()
 * when there; malloc'ed, NULL when out of memory. */
char *cli_rules_find(const char *name);
/* Load rule file ARG (found as cli_rules_find() does) into rs, or every
 * *.rules file of ARG when it is a folder.  The library's result (a
 * message was given). */
int cli_rules_load(hm_ruleset *rs, const char *arg);

/* The library's lookup options from the command's --debug-dir, --buildid-dir
 * and --offline (struct cli_debuginfo, options.h). */
struct cli_debuginfo;
void cli_debuginfo_opts(const struct cli_debuginfo *d, struct hm_debuginfo_opts *o);

/* "error: ..." / "warning: ..." on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "usage error" text and return HM_EXIT_USAGE. */
int cli_usage_error(const struct hm_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* `-C NAME` names nothing in FILE: one message for every command,
 * "FILE: no struct, union or class named 'NAME' (did you mean 'A', 'B'?)"
 * with the closest names when some are close.  Returns HM_EXIT_USAGE. */
int cli_unknown_struct(const char *file, const hm_types *t, const char *name);
/* A plain -C name that classes of several C++ scopes have: the error naming
 * each qualified (exit 2); 0 when it names one. */
int cli_ambiguous_struct(const char *file, const hm_types *t, const char *name);

/* Print the command's --help to stdout and return HM_EXIT_OK. */
int cli_help(const struct hm_cmd *cmd);

/* Parse an unsigned number (decimal or 0x hex) with bounds; returns 0 or -1. */
int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Append s (not copied) to the growable array *v of *n strings, for
 * repeatable options.  0, or -1 when out of memory. */
int cli_push(const char ***v, size_t *n, const char *s);

/* Make room for `need` elements of `elem` bytes in *ptr (capacity *cap),
 * growing geometrically.  0 or -ENOMEM (*ptr unchanged). */
int cli_grow(void **ptr, size_t *cap, size_t need, size_t elem);

/* Map a negative errno from the library to an exit status: input problems are 3. */
int cli_exit_for(int err);

/* --html FILE: call write(f, ctx) on FILE opened for writing, then close
 * it; an unopenable or unwritable FILE is said (exit 3).  Returns an exit
 * status: HM_EXIT_OK, or HM_EXIT_INPUT after saying why. */
int cli_write_html(const char *path, int (*write)(FILE *f, void *ctx), void *ctx);

/* The options of every type load a command does: the persistent type cache
 * in the library's default directory ($XDG_CACHE_HOME/hitmap), read and
 * written — unless no_cache (--no-cache) or HITMAP_NO_CACHE (set to anything
 * but "" or "0") turns it off.  The caller adds `only` and the rest. */
void cli_load_opts(struct hm_load_opts *o, int no_cache);

/* A profile made from a cut recording (p->truncated set) counts only part
 * of it: say so, naming FILE and the cut, and give --allow-partial as the
 * way to use it anyway.  Returns HM_EXIT_INPUT. */
int cli_refuse_partial(const char *file, const hm_profile *p);

#endif
