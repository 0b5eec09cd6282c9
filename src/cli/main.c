/* hitmap: dispatch to a subcommand. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "hitmap/hitmap.h"
#include "cli.h"

static const struct hm_cmd *const commands[] = {
	&hm_cmd_layout, &hm_cmd_report, &hm_cmd_suggest, &hm_cmd_check,
	&hm_cmd_lint, &hm_cmd_diff, &hm_cmd_record,
};
#define NCMDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	size_t i;

	fputs("usage: hitmap COMMAND [OPTIONS] [ARGS]\n\n"
	      "Find false sharing and bad cacheline layouts in C programs and the Linux\n"
	      "kernel.\n\ncommands:\n", out);
	for (i = 0; i < NCMDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\n'hitmap COMMAND --help' describes a command; see also hitmap(1).\n"
	      "exit status: 0 ok, 1 findings at or above --fail-on, 2 usage error,\n"
	      "3 unreadable or malformed input\n", out);
}

static void print_diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	static const char *const names[] = { "error", "warning", "note", "debug" };

	(void)ctx;
	if (level == HM_DIAG_DEBUG && !cli_verbose)
		return;
	fflush(stdout);
	if (level == HM_DIAG_DEBUG)
		fprintf(stderr, "hitmap: %s\n", msg);
	else
		fprintf(stderr, "%s: %s\n", names[level], msg);
}

int main(int argc, char **argv)
{
	size_t i;

	hm_set_diag(print_diag, NULL);
	if (argc < 2) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			for (i = 0; i < NCMDS; i++)
				if (!strcmp(argv[2], commands[i]->name))
					return cli_help(commands[i]);
		}
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("hitmap %s\n", HM_VERSION);
		return HM_EXIT_OK;
	}
	for (i = 0; i < NCMDS; i++) {
		if (strcmp(argv[1], commands[i]->name))
			continue;
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")))
			return cli_help(commands[i]);
		return commands[i]->run(argc - 1, argv + 1);
	}
	fprintf(stderr, "error: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return HM_EXIT_USAGE;
}
