/* hitmap: dispatch to a subcommand. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "hitmap/hitmap.h"
#include "cli.h"
#include "options.h"

static const struct hm_cmd *const commands[] = {
	&hm_cmd_layout, &hm_cmd_report, &hm_cmd_suggest, &hm_cmd_check,
	&hm_cmd_lint, &hm_cmd_diff, &hm_cmd_record, &hm_cmd_profile,
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
	fputs("\n'hitmap COMMAND --help' (or 'hitmap help COMMAND') describes a command;\n"
	      "see also hitmap(1).\n"
	      "exit status: 0 ok, 1 findings at or above --fail-on, 2 usage error,\n"
	      "3 unreadable or malformed input\n", out);
}

int cli_diag_muted;

static void print_diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	static const char *const names[] = { "error", "warning", "note", "debug" };

	(void)ctx;
	if ((level == HM_DIAG_DEBUG && !cli_verbose) || cli_diag_muted)
		return;
	fflush(stdout);
	if (level == HM_DIAG_DEBUG)
		fprintf(stderr, "hitmap: %s\n", msg);
	else
		fprintf(stderr, "%s: %s\n", names[level], msg);
}

/* "hitmap: 'layuot' is not a hitmap command", with the closest names. */
static int unknown_command(const char *name)
{
	const char *names[NCMDS + 1];
	char hint[256];
	size_t i;

	for (i = 0; i < NCMDS; i++)
		names[i] = commands[i]->name;
	names[NCMDS] = "help";
	fflush(stdout);
	if (name[0] == '-') {
		fprintf(stderr, "error: unknown option '%s'\n", name);
	} else {
		fprintf(stderr, "hitmap: '%s' is not a hitmap command\n", name);
		if (cli_similar(name, names, NCMDS + 1, "", hint, sizeof(hint)))
			fprintf(stderr, "hint: did you mean %s?\n", hint);
	}
	fputs("try 'hitmap --help'\n", stderr);
	return HM_EXIT_USAGE;
}

static const struct hm_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NCMDS; i++)
		if (!strcmp(name, commands[i]->name))
			return commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct hm_cmd *cmd;

	hm_set_diag(print_diag, NULL);
	if (argc < 2) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			if (!(cmd = find_command(argv[2])))
				return unknown_command(argv[2]);
			return cli_help(cmd);
		}
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("hitmap %s\n", HM_VERSION);
		return HM_EXIT_OK;
	}
	if (!(cmd = find_command(argv[1])))
		return unknown_command(argv[1]);
	return cmd->run(argc - 1, argv + 1);
}
