#include "config.h"
#include "cli.h"

static int run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("hitmap report: not implemented yet");
	return HM_EXIT_USAGE;
}

const struct hm_cmd hm_cmd_report = {
	.name = "report",
	.summary = "(not implemented yet)",
	.usage = "usage: hitmap report\n",
	.run = run,
};
