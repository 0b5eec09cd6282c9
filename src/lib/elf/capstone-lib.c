/* capstone opened at its first use (capstone-lib.h says why). */
#include "config.h"
#include <pthread.h>
#include <stddef.h>
#include "base/dlib.h"
#include "elf/capstone-lib.h"

static struct hmi_capstone_lib lib;
static const struct hmi_capstone_lib *loaded;
static struct hmi_dlib dl;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	/* never closed: decoders live in caches that outlast any one caller */
	if (hmi_dlib_open(&dl, HM_CAPSTONE_SONAME))
		return;
	lib.open = (__typeof__(lib.open))hmi_dlib_sym(&dl, "cs_open");
	lib.option = (__typeof__(lib.option))hmi_dlib_sym(&dl, "cs_option");
	lib.close = (__typeof__(lib.close))hmi_dlib_sym(&dl, "cs_close");
	lib.malloc = (__typeof__(lib.malloc))hmi_dlib_sym(&dl, "cs_malloc");
	lib.free = (__typeof__(lib.free))hmi_dlib_sym(&dl, "cs_free");
	lib.disasm = (__typeof__(lib.disasm))hmi_dlib_sym(&dl, "cs_disasm");
	lib.disasm_iter = (__typeof__(lib.disasm_iter))hmi_dlib_sym(&dl, "cs_disasm_iter");
	lib.regs_access = (__typeof__(lib.regs_access))hmi_dlib_sym(&dl, "cs_regs_access");
	lib.reg_name = (__typeof__(lib.reg_name))hmi_dlib_sym(&dl, "cs_reg_name");
	if (!dl.error)
		loaded = &lib;
}

const struct hmi_capstone_lib *hmi_capstone_open(const char **why)
{
	pthread_once(&once, load);
	if (!loaded && why)
		*why = dl.error;
	return loaded;
}
