/* kcore-bytes DIR ADDR LEN...: the bytes hitmap's kcore reader
 * (src/lib/elf/kcore.c) finds at run-time address ADDR of the kcore copy
 * in DIR (a kcore_dir), "48 8b 47 08" a line per ADDR LEN pair, or
 * "none" when no segment holds them all; a test compares them with what
 * gdb reads from the same file.  An error: its line on stderr, exit 3. */
#include <stdio.h>
#include <stdlib.h>
#include "hitmap/hitmap.h"
#include "elf/kcore.h"

static void diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	(void)ctx;
	if (level <= HM_DIAG_WARNING)
		fprintf(stderr, "%s\n", msg);
}

int main(int argc, char **argv)
{
	hm_kcore *k;

	if (argc < 4 || argc % 2) {
		fprintf(stderr, "usage: kcore-bytes DIR ADDR LEN...\n");
		return 2;
	}
	hm_set_diag(diag, NULL);
	if (hm_kcore_open(argv[1], &k))
		return 3;
	for (int i = 2; i + 1 < argc; i += 2) {
		unsigned long long a = strtoull(argv[i], NULL, 16);
		size_t len = strtoul(argv[i + 1], NULL, 0), n;
		const uint8_t *p = hm_kcore_bytes(k, a, len, &n);

		if (!p || n < len) {
			printf("none\n");
			continue;
		}
		for (size_t j = 0; j < len; j++)
			printf("%s%02x", j ? " " : "", p[j]);
		printf("\n");
	}
	hm_kcore_free(k);
	return 0;
}
