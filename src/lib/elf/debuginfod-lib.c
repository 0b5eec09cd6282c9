/* libdebuginfod opened at its first use (debuginfod-lib.h says why). */
#include "config.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include "elf/debuginfod-lib.h"

static struct hm_debuginfod_lib lib;
static const struct hm_debuginfod_lib *loaded;
static const char *load_error;
/* dlerror()'s text lives only until that thread's next call: kept here */
static char dl_error[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *sym(void *h, const char *name)
{
	void *p = dlsym(h, name);

	if (!p && !load_error)
		load_error = "a function is missing from " HM_DEBUGINFOD_SONAME;
	return p;
}

static void load(void)
{
	/* never closed: a client may outlive any one search, and the
	 * libraries under it do not all unload cleanly */
	void *h = dlopen(HM_DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		const char *e = dlerror();

		snprintf(dl_error, sizeof(dl_error), "%s", e ? e : "cannot be opened");
		load_error = dl_error;
		return;
	}
	lib.begin = (__typeof__(lib.begin))sym(h, "debuginfod_begin");
	lib.end = (__typeof__(lib.end))sym(h, "debuginfod_end");
	lib.set_user_data = (__typeof__(lib.set_user_data))sym(h, "debuginfod_set_user_data");
	lib.get_user_data = (__typeof__(lib.get_user_data))sym(h, "debuginfod_get_user_data");
	lib.set_progressfn = (__typeof__(lib.set_progressfn))sym(h, "debuginfod_set_progressfn");
	lib.find_debuginfo = (__typeof__(lib.find_debuginfo))sym(h, "debuginfod_find_debuginfo");
	if (!load_error)
		loaded = &lib;
}

const struct hm_debuginfod_lib *hm_debuginfod_open(const char **why)
{
	pthread_once(&once, load);
	if (!loaded && why)
		*why = load_error;
	return loaded;
}
