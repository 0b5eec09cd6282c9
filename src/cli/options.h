/* One option layer for every hitmap command, in the shape of git's
 * parse-options: a command declares a table of its options, and the parser
 * fills the command's argument struct from argv, writes `--help` from the
 * same table, and reports every mistake the same way (exit 2).
 *
 * Unlike git's tables, an entry names a member of the command's argument
 * struct (offset and size) rather than a variable: the table is then a
 * constant that `struct hm_cmd` points at, so `hitmap help CMD` and the
 * parser read the one declaration, and no command body builds a table.
 *
 * Options that several commands share (type loading, attribution, output)
 * are declared once, at the bottom of this file, and reused by every table. */
#ifndef HM_CLI_OPTIONS_H
#define HM_CLI_OPTIONS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct hm_cmd;

enum cli_opt_type {
	CLI_OPT_END,
	CLI_OPT_GROUP,		/* a heading (free text) in --help */
	CLI_OPT_FLAG,		/* int = value; takes no argument */
	CLI_OPT_BOOL,		/* int = 1, and --no-X = 0 */
	CLI_OPT_UINT,		/* unsigned of 4 or 8 bytes, in [min, max] */
	CLI_OPT_STRING,		/* const char * */
	CLI_OPT_LIST,		/* repeatable: appended to a list, see max */
	CLI_OPT_CHOICE,		/* int = the value of one of `choices` */
	CLI_OPT_CALLBACK,	/* cb(opt, arg, base) */
};

enum {
	CLI_POW2 = 1 << 0,	/* UINT: a power of two */
	CLI_COMMA = 1 << 1,	/* LIST: NAME[,NAME...], empty names dropped */
};

struct cli_choice {
	const char *name;
	int value;
};

struct cli_option {
	enum cli_opt_type type;
	int short_name;		/* 0: none */
	const char *long_name;	/* NULL: none */
	size_t off, size;	/* the member of the argument struct */
	size_t count_off;	/* LIST: its size_t count */
	size_t max;		/* LIST: a fixed array of max entries; 0: a growable
				 * const char ** (realloc'ed, NULL-terminated) */
	const char *argh;	/* the argument's name in --help; NULL: none taken */
	const char *help;
	unsigned flags;
	uint64_t min, umax;	/* UINT */
	int value;		/* FLAG */
	const struct cli_choice *choices;	/* CHOICE: NULL-name-terminated */
	/* CALLBACK: 0, or an exit status after saying why */
	int (*cb)(const struct cli_option *opt, const char *arg, void *base);
};

/* The member `m` of the argument struct `T`: (offset, size), one macro
 * argument however deep it is passed, unpacked into .off and .size (the
 * member after it) of an entry.  A LIST's count is named by its offset
 * alone (CLI_OFF). */
#define CLI_FIELD(T, m) (offsetof(T, m), sizeof(((T *)0)->m))
#define CLI_OFF(T, m) offsetof(T, m)
#define CLI_UNPACK(o, s) o, s

#define OPT_END() { .type = CLI_OPT_END }
#define OPT_GROUP(text) { .type = CLI_OPT_GROUP, .help = (text) }
#define OPT_FLAG(s, l, field, h) \
	{ .type = CLI_OPT_FLAG, .short_name = (s), .long_name = (l), .off = CLI_UNPACK field, \
	  .help = (h), .value = 1 }
#define OPT_SET_INT(s, l, field, v, h) \
	{ .type = CLI_OPT_FLAG, .short_name = (s), .long_name = (l), .off = CLI_UNPACK field, \
	  .help = (h), .value = (v) }
#define OPT_BOOL(s, l, field, h) \
	{ .type = CLI_OPT_BOOL, .short_name = (s), .long_name = (l), .off = CLI_UNPACK field, \
	  .help = (h) }
#define OPT_UINT(s, l, field, a, lo, hi, h) \
	{ .type = CLI_OPT_UINT, .short_name = (s), .long_name = (l), .off = CLI_UNPACK field, \
	  .argh = (a), .help = (h), .min = (lo), .umax = (hi) }
#define OPT_POW2(s, l, field, a, lo, hi, h) \
	{ .type = CLI_OPT_UINT, .short_name = (s), .long_name = (l), .off = CLI_UNPACK field, \
	  .argh = (a), .help = (h), .min = (lo), .umax = (hi), .flags = CLI_POW2 }
#define OPT_STRING(s, l, field, a, h) \
	{ .type = CLI_OPT_STRING, .short_name = (s), .long_name = (l), .off = CLI_UNPACK field, \
	  .argh = (a), .help = (h) }
#define OPT_LIST(s, l, field, count, n, a, h) \
	{ .type = CLI_OPT_LIST, .short_name = (s), .long_name = (l), .off = CLI_UNPACK field, \
	  .count_off = (count), .max = (n), .argh = (a), .help = (h) }
#define OPT_NAMES(s, l, field, count, n, a, h) \
	{ .type = CLI_OPT_LIST, .short_name = (s), .long_name = (l), .off = CLI_UNPACK field, \
	  .count_off = (count), .max = (n), .argh = (a), .help = (h), .flags = CLI_COMMA }
#define OPT_CHOICE(s, l, field, list, a, h) \
	{ .type = CLI_OPT_CHOICE, .short_name = (s), .long_name = (l), .off = CLI_UNPACK field, \
	  .choices = (list), .argh = (a), .help = (h) }
#define OPT_CALLBACK(s, l, fn, a, h) \
	{ .type = CLI_OPT_CALLBACK, .short_name = (s), .long_name = (l), .cb = (fn), \
	  .argh = (a), .help = (h) }

/* cli_parse_options() returns this after -h or --help (nothing printed). */
#define CLI_HELP (-1)

enum {
	CLI_STOP_AT_OPERAND = 1 << 0,	/* the first operand ends the options
					 * (record passes a command's argv on) */
};

/* Parse argv[1..argc) (argv[0] is the command's name) by cmd->options into
 * the struct at base.  Options and operands may mix, unless
 * CLI_STOP_AT_OPERAND; `--` ends the options.  The operands are moved to
 * argv[1..1+*nargs), in order, and NULL follows them.  Returns 0, CLI_HELP, or an exit status after
 * saying what is wrong (HM_EXIT_USAGE; HM_EXIT_INPUT when out of memory). */
int cli_parse_options(const struct hm_cmd *cmd, int argc, char **argv, void *base,
		      unsigned flags, int *nargs);

/* `hitmap CMD --help`: usage lines, description, the option table wrapped
 * at 80 columns, the epilog. */
void cli_print_help(const struct hm_cmd *cmd, FILE *out);

/* Restricted Damerau-Levenshtein distance, for "did you mean". */
unsigned cli_edit_distance(const char *a, const char *b);

/* The candidates closest to `typed` that are close enough to be a typo, as
 * "'a', 'b'" (with the prefix, e.g. "--", before each) into buf.  Returns
 * how many (0: none close enough). */
size_t cli_similar(const char *typed, const char *const *cands, size_t n, const char *prefix,
		   char *buf, size_t len);

/* ---- options several commands share: one meaning and one range each ---- */

/* Type loading.  -C names structs (as pahole's --class_name does); -c is
 * pahole's cacheline size, from 8 (the smallest the layout, check and
 * suggest code works with) to 65536 bytes.  `hitmap record -c` is perf
 * record's sample period instead (see hitmap(1)). */
#define CLI_LINE_MIN 8
#define CLI_LINE_MAX 65536
#define OPT_CLASS_NAME(field, count, n) \
	OPT_NAMES('C', "class_name", field, count, n, "NAME[,NAME...]", \
		  "only these structs, unions or classes (repeatable)")
#define OPT_CACHELINE_SIZE(field) \
	OPT_POW2('c', "cacheline-size", field, "N", CLI_LINE_MIN, CLI_LINE_MAX, \
		 "cacheline size in bytes, a power of two (default: from the " \
		 "binary's ELF machine: 64 on x86-64 and arm64, 128 on ppc64, 256 on s390x)")
#define OPT_BTF(field) \
	OPT_FLAG(0, "btf", field, \
		 "read the .BTF section instead of DWARF (BTF is used anyway when " \
		 "there is no DWARF; FILE may be a raw BTF file such as " \
		 "/sys/kernel/btf/vmlinux); BTF has no alignment attributes: they " \
		 "are inferred from holes")
#define OPT_NO_CACHE(field) \
	OPT_FLAG(0, "no-cache", field, \
		 "neither read nor write the type cache (the types of a file with a " \
		 "build-id, and report's answers, are kept in " \
		 "$XDG_CACHE_HOME/hitmap, default ~/.cache/hitmap; " \
		 "HITMAP_NO_CACHE=1 does the same)")

/* Threads for reading DWARF (hm_load_opts.threads). */
#define CLI_JOBS_MAX 256
#define OPT_JOBS(field) \
	OPT_UINT('j', "jobs", field, "N", 1, CLI_JOBS_MAX, \
		 "read DWARF on N threads (default: one per online CPU); " \
		 "the output is the same for any N")

#define OPT_BTF_BASE(field) \
	OPT_STRING(0, "btf-base", field, "FILE", \
		   "the base of a split BTF file (a kernel module's): a raw BTF file " \
		   "(default for /sys/kernel/btf/MODULE: /sys/kernel/btf/vmlinux)")

/* Attribution of perf.data samples, as `hitmap report` does it. */
#define OPT_BINARIES(field, count, n) \
	OPT_LIST(0, "binary", field, count, n, "FILE", \
		 "an ELF file with DWARF for mappings of its build-id or file name " \
		 "(repeatable); files named by the recording are used when they " \
		 "exist and their build-id matches")
#define OPT_VMLINUX(field) \
	OPT_STRING(0, "vmlinux", field, "FILE", "the kernel image with DWARF (kernel addresses)")
#define OPT_OBJECTS(field, count, n) \
	OPT_LIST(0, "object", field, count, n, "TYPE@ADDR", \
		 "an object of struct TYPE at runtime address ADDR (repeatable)")
#define OPT_SYSROOT(field) \
	OPT_STRING(0, "sysroot", field, "DIR", \
		   "look for the files named by the recording under DIR (a recording " \
		   "from another machine, or one you do not trust); names with '..' " \
		   "are then never opened")

/* Where a stripped binary's debug info is looked for (hitmap/debuginfo.h):
 * a command embeds a struct cli_debuginfo and lists CLI_DEBUGINFO_OPTIONS. */
struct cli_debuginfo {
	const char **dirs;	/* --debug-dir, growable */
	size_t ndirs;
	const char *buildid_dir;
	int offline;
};
#define OPT_DEBUGINFO(T, m) \
	OPT_LIST(0, "debug-dir", CLI_FIELD(T, m.dirs), CLI_OFF(T, m.ndirs), 0, "DIR", \
		 "look for a stripped file's debug info in DIR (DIR/.build-id/xx/" \
		 "rest.debug, DIR/<its folder>/<its .gnu_debuglink>) before " \
		 "/usr/lib/debug (repeatable)"), \
	OPT_STRING(0, "buildid-dir", CLI_FIELD(T, m.buildid_dir), "DIR", \
		   "perf's build-id cache (default ~/.debug)"), \
	OPT_FLAG(0, "offline", CLI_FIELD(T, m.offline), \
		 "never ask a debuginfod server (DEBUGINFOD_URLS)")
#define OPT_VERBOSE_DEBUG(field) \
	OPT_FLAG('v', "verbose", field, \
		 "say where debug info came from, and the caches' decisions")

/* Output. */
#define CLI_HELP_JSON "JSON (\"schema\": \"hitmap/1\") instead of text"
#define OPT_JSON(field) OPT_FLAG(0, "json", field, CLI_HELP_JSON)
#define OPT_JSON_AS(field, v) OPT_SET_INT(0, "json", field, v, CLI_HELP_JSON)
#define OPT_SARIF_AS(field, v) \
	OPT_SET_INT(0, "sarif", field, v, "SARIF 2.1.0, located at each struct's declaration")
#define OPT_HTML(field) \
	OPT_STRING(0, "html", field, "FILE", \
		   "also write one self-contained HTML page to FILE: the structs drawn " \
		   "on their cachelines, coloured by heat (no network, open it in any " \
		   "browser)")
extern const struct cli_choice cli_fail_on_choices[];
#define OPT_FAIL_ON(field) \
	OPT_CHOICE(0, "fail-on", field, cli_fail_on_choices, "LEVEL", \
		   "exit 1 on findings at or above error (default) or warn")

#endif
