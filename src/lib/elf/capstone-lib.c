/* capstone opened at its first use (capstone-lib.h says why). */
#include "config.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include "elf/capstone-lib.h"

static struct hmi_capstone_lib lib;
static const struct hmi_capstone_lib *loaded;
static const char *load_error;
/* dlerror()'s text lives only until that thread's next call: kept here */
static char dl_error[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *sym(void *h, const char *name)
{
	void *p = dlsym(h, name);

	if (!p && !load_error)
		load_error = "a function is missing from " HM_CAPSTONE_SONAME;
	return p;
}

static void load(void)
{
	/* never closed: decoders live in caches that outlast any one caller */
	void *h = dlopen(HM_CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		const char *e = dlerror();

		snprintf(dl_error, sizeof(dl_error), "%s", e ? e : "cannot be opened");
		load_error = dl_error;
		return;
	}
	lib.open = (__typeof__(lib.open))sym(h, "cs_open");
	lib.option = (__typeof__(lib.option))sym(h, "cs_option");
	lib.close = (__typeof__(lib.close))sym(h, "cs_close");
	lib.malloc = (__typeof__(lib.malloc))sym(h, "cs_malloc");
	lib.free = (__typeof__(lib.free))sym(h, "cs_free");
	lib.disasm = (__typeof__(lib.disasm))sym(h, "cs_disasm");
	lib.disasm_iter = (__typeof__(lib.disasm_iter))sym(h, "cs_disasm_iter");
	lib.regs_access = (__typeof__(lib.regs_access))sym(h, "cs_regs_access");
	lib.reg_name = (__typeof__(lib.reg_name))sym(h, "cs_reg_name");
	if (!load_error)
		loaded = &lib;
}

const struct hmi_capstone_lib *hmi_capstone_open(const char **why)
{
	pthread_once(&once, load);
	if (!loaded && why)
		*why = load_error;
	return loaded;
}
