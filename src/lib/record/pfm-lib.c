/* libpfm4 opened at its first use (pfm-lib.h says why). */
#include "config.h"
#include <pthread.h>
#include <stddef.h>
#include "base/dlib.h"
#include "record/pfm-lib.h"

static struct hmi_pfm_lib lib;
static const struct hmi_pfm_lib *loaded;
static struct hmi_dlib dl;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	/* never closed: libpfm4 keeps its tables for the process */
	if (hmi_dlib_open(&dl, HM_PFM_SONAME))
		return;
	lib.initialize = (__typeof__(lib.initialize))hmi_dlib_sym(&dl, "pfm_initialize");
	lib.strerror = (__typeof__(lib.strerror))hmi_dlib_sym(&dl, "pfm_strerror");
	lib.get_pmu_info = (__typeof__(lib.get_pmu_info))hmi_dlib_sym(&dl, "pfm_get_pmu_info");
	lib.get_os_event_encoding = (__typeof__(lib.get_os_event_encoding))
		hmi_dlib_sym(&dl, "pfm_get_os_event_encoding");
	if (!dl.error)
		loaded = &lib;
}

const struct hmi_pfm_lib *hmi_pfm_open(const char **why)
{
	pthread_once(&once, load);
	if (!loaded && why)
		*why = dl.error;
	return loaded;
}
