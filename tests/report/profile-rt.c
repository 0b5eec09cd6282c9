/* profile-rt: load a profile and write it back (the round-trip test), or
 * report why it cannot be loaded: exit 3 and the loader's diagnostic.
 * `profile-rt --from-perf PERF.DATA OUT` builds the profile with
 * hm_profile_from_perf() instead; `profile-rt --print BINARY STRUCT PROFILE`
 * prints hm_heat_print_struct() of STRUCT. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "hitmap/attribute.h"
#include "hitmap/heat.h"
#include "hitmap/hitmap.h"
#include "hitmap/types.h"

static void diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s: %s\n", level == HM_DIAG_ERROR ? "error" : "warning", msg);
}

static int print_heat(const char *binary, const char *name, const char *profile)
{
	struct hm_load_opts lo = { .sz = sizeof(lo) };
	const hm_profile_struct *ps;
	hm_binary *bin = hm_binary_open(binary);
	hm_types *t = NULL;
	hm_profile *p = NULL;
	int err = 3;

	if (bin && !hm_types_load(bin, &lo, &t) && !hm_profile_load(profile, &p) &&
	    (ps = hm_profile_find_struct(p, name)))
		err = hm_heat_print_struct(stdout, t, hm_types_find_struct(t, name), ps, 64) ? 3 : 0;
	hm_profile_free(p);
	hm_types_free(t);
	hm_binary_close(bin);
	return err;
}

int main(int argc, char **argv)
{
	hm_profile *p;
	int err;

	hm_set_diag(diag, NULL);
	if (argc == 5 && !strcmp(argv[1], "--print"))
		return print_heat(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "--from-perf")) {
		struct hm_profile_source src = { .perf_data = argv[2] };

		err = hm_profile_from_perf(&src, &p);
		argv++;
	} else if (argc == 3) {
		err = hm_profile_load(argv[1], &p);
	} else {
		fputs("usage: profile-rt IN OUT | --from-perf PERF.DATA OUT\n", stderr);
		return 2;
	}
	if (err)
		return 3;
	err = hm_profile_save(p, argv[2]);
	hm_profile_free(p);
	return err ? 3 : 0;
}
