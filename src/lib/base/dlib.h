/* A library opened by soname on first use (capstone, libpfm4,
 * libdebuginfod: elf/capstone-lib.h says why they are not linked). */
#ifndef HM_BASE_DLIB_H
#define HM_BASE_DLIB_H

struct hmi_dlib {
	void *handle;
	const char *soname;
	const char *error;	/* the first failure, NULL while none */
	/* dlerror()'s text lives only until that thread's next call */
	char dl_error[256];
};

/* Open soname into d (never closed: what the library keeps outlives any
 * one caller).  0, or -1 with d->error set. */
int hmi_dlib_open(struct hmi_dlib *d, const char *soname);
/* Symbol name of d's library; NULL, with d->error set if it was not, when
 * the library lacks it. */
void *hmi_dlib_sym(struct hmi_dlib *d, const char *name);

#endif
