/* Internal to heat/: building and writing profiles (profile.c), used by
 * heat.c and heat-member.c; other folders read profiles through heat-lib.h. */
#ifndef HM_PROFILE_INT_H
#define HM_PROFILE_INT_H
#include <stdio.h>
#include "hitmap/heat.h"
#include "base/util.h"
#include "heat/heat-lib.h"

struct hm_profile_impl {
	hm_profile p;		/* first: hm_profile * and impl * convert */
	hm_arena arena;		/* everything the profile points to */
};

/* An empty profile whose memory comes from its own arena. */
hm_profile *hm_profile_alloc(void);
hm_arena *hm_profile_arena(hm_profile *p);
/* The JSON text of a profile on an open stream. */
int hm_profile_write(const hm_profile *p, FILE *out);

/* heat-member.c: whether profile path f is `path` or inside it
 * ("slots[3].hits" is in "slots"; "" is the whole object). */
int hm_profile_path_within(const char *f, const char *path);

#endif
