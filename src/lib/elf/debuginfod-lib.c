/* libdebuginfod opened at its first use (debuginfod-lib.h says why). */
#include "config.h"
#include <pthread.h>
#include <stddef.h>
#include "base/dlib.h"
#include "elf/debuginfod-lib.h"

static struct hm_debuginfod_lib lib;
static const struct hm_debuginfod_lib *loaded;
static struct hmi_dlib dl;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	/* never closed: a client may outlive any one search, and the
	 * libraries under it do not all unload cleanly */
	if (hmi_dlib_open(&dl, HM_DEBUGINFOD_SONAME))
		return;
	lib.begin = (__typeof__(lib.begin))hmi_dlib_sym(&dl, "debuginfod_begin");
	lib.end = (__typeof__(lib.end))hmi_dlib_sym(&dl, "debuginfod_end");
	lib.set_user_data = (__typeof__(lib.set_user_data))
		hmi_dlib_sym(&dl, "debuginfod_set_user_data");
	lib.get_user_data = (__typeof__(lib.get_user_data))
		hmi_dlib_sym(&dl, "debuginfod_get_user_data");
	lib.set_progressfn = (__typeof__(lib.set_progressfn))
		hmi_dlib_sym(&dl, "debuginfod_set_progressfn");
	lib.find_debuginfo = (__typeof__(lib.find_debuginfo))
		hmi_dlib_sym(&dl, "debuginfod_find_debuginfo");
	if (!dl.error)
		loaded = &lib;
}

const struct hm_debuginfod_lib *hm_debuginfod_open(const char **why)
{
	pthread_once(&once, load);
	if (!loaded && why)
		*why = dl.error;
	return loaded;
}
