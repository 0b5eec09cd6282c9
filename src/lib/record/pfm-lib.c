/* libpfm4 opened at its first use (pfm-lib.h says why). */
#include "config.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include "record/pfm-lib.h"

static struct hmi_pfm_lib lib;
static const struct hmi_pfm_lib *loaded;
static const char *load_error;
/* dlerror()'s text lives only until that thread's next call: kept here */
static char dl_error[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *sym(void *h, const char *name)
{
	void *p = dlsym(h, name);

	if (!p && !load_error)
		load_error = "a function is missing from " HM_PFM_SONAME;
	return p;
}

static void load(void)
{
	/* never closed: libpfm4 keeps its tables for the process */
	void *h = dlopen(HM_PFM_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		const char *e = dlerror();

		snprintf(dl_error, sizeof(dl_error), "%s", e ? e : "cannot be opened");
		load_error = dl_error;
		return;
	}
	lib.initialize = (__typeof__(lib.initialize))sym(h, "pfm_initialize");
	lib.strerror = (__typeof__(lib.strerror))sym(h, "pfm_strerror");
	lib.get_pmu_info = (__typeof__(lib.get_pmu_info))sym(h, "pfm_get_pmu_info");
	lib.get_os_event_encoding = (__typeof__(lib.get_os_event_encoding))
		sym(h, "pfm_get_os_event_encoding");
	if (!load_error)
		loaded = &lib;
}

const struct hmi_pfm_lib *hmi_pfm_open(const char **why)
{
	pthread_once(&once, load);
	if (!loaded && why)
		*why = load_error;
	return loaded;
}
