#include "config.h"
#include "cli.h"

static int run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("hitmap diff: not implemented yet");
	return HM_EXIT_USAGE;
}

const struct hm_cmd hm_cmd_diff = {
	.name = "diff",
	.summary = "(not implemented yet)",
	.usage = "usage: hitmap diff\n",
	.run = run,
};
