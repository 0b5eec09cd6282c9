/* A library opened by soname on first use (dlib.h). */
#include "config.h"
#include <dlfcn.h>
#include <stdio.h>
#include "base/dlib.h"

int hmi_dlib_open(struct hmi_dlib *d, const char *soname)
{
	const char *e;

	d->soname = soname;
	d->handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (d->handle)
		return 0;
	e = dlerror();
	snprintf(d->dl_error, sizeof(d->dl_error), "%s", e ? e : "cannot be opened");
	d->error = d->dl_error;
	return -1;
}

void *hmi_dlib_sym(struct hmi_dlib *d, const char *name)
{
	void *p = dlsym(d->handle, name);

	if (!p && !d->error) {
		snprintf(d->dl_error, sizeof(d->dl_error), "a function is missing from %s",
			 d->soname);
		d->error = d->dl_error;
	}
	return p;
}
