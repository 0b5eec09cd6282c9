/* hitmap profile: work on saved profiles.  `merge` sums the profiles of many
 * hosts or runs into one, which check and suggest then take (the fleet story:
 * record everywhere, merge files, gate CI on the result). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/heat.h"
#include "hitmap/hitmap.h"
#include "cli.h"
#include "options.h"

struct pargs {
	const char *out;
	int force;
};

#define A(m) CLI_FIELD(struct pargs, m)

static int merge(int argc, char **argv)
{
	struct pargs a = { 0 };
	hm_profile **in = NULL;
	int rc, n = 0, i;

	rc = cli_parse_options(&hm_cmd_profile, argc, argv, &a, 0, &n);
	if (rc)
		return rc == CLI_HELP ? cli_help(&hm_cmd_profile) : rc;
	if (!a.out)
		return cli_usage_error(&hm_cmd_profile, "merge needs -o OUT");
	if (n < 1)
		return cli_usage_error(&hm_cmd_profile, "merge needs at least one PROFILE");
	if (!(in = calloc((size_t)n, sizeof(*in))))
		return HM_EXIT_INPUT;
	for (i = 0; i < n && !rc; i++)
		if (hm_profile_load(argv[1 + i], &in[i]))
			rc = HM_EXIT_INPUT;
	if (!rc) {
		HM_OPTS(hm_profile_merge_opts, mo, .force = !!a.force);
		hm_profile *m = NULL;

		if (hm_profile_merge((const hm_profile *const *)in, (const char *const *)argv + 1,
				     (size_t)n, &mo, &m) || hm_profile_save(m, a.out))
			rc = HM_EXIT_INPUT;
		hm_profile_free(m);
	}
	for (i = 0; i < n; i++)
		hm_profile_free(in[i]);
	free(in);
	return rc;
}

static int run(int argc, char **argv)
{
	static const char *const subs[] = { "merge", NULL };

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		if (argc < 2)
			return cli_usage_error(&hm_cmd_profile, "missing subcommand (merge)");
		return cli_help(&hm_cmd_profile);
	}
	if (!strcmp(argv[1], "merge"))
		return merge(argc - 1, argv + 1);
	if (cli_edit_distance(argv[1], subs[0]) <= 2)
		return cli_usage_error(&hm_cmd_profile, "unknown subcommand '%s' (did you mean "
				       "'%s'?)", argv[1], subs[0]);
	return cli_usage_error(&hm_cmd_profile, "unknown subcommand '%s' (merge)", argv[1]);
}

static const struct cli_option options[] = {
	OPT_STRING('o', "output", A(out), "OUT", "write the merged profile to OUT (- = stdout)"),
	OPT_FLAG(0, "force", A(force),
		 "merge profiles of different builds, data kinds or line sizes anyway "
		 "(counters are summed by struct and field name)"),
	OPT_END(),
};

const struct hm_cmd hm_cmd_profile = {
	.name = "profile",
	.summary = "merge saved profiles (from many hosts or runs) into one",
	.usage = (const char *const[]){ "merge [--force] -o OUT PROFILE...", NULL },
	.description =
	"merge: sum profiles written by 'hitmap report --save-profile' into one that\n"
	"'hitmap check --profile' and 'hitmap suggest --profile' take.  Counters add\n"
	"up by struct and field path; CPU and thread sets, object names and the\n"
	"recorded builds are unions.  The profiles must agree: the same data kind\n"
	"and line size, no file recorded with two build-ids, and per struct the same\n"
	"size and field offsets and sizes; otherwise merge names both profiles and\n"
	"the difference and exits 3, unless --force.",
	.options = options,
	.epilog = "Exit status: 0 merged, 2 usage, 3 a profile unreadable, malformed or\n"
		  "not matching the others.",
	.run = run,
};
