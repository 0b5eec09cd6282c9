/* One library loaded, unloaded and loaded again at another address (its
 * first range kept taken by an anonymous map), its function sampled in both
 * loads: each load has its own bias.  Every r->c starts a fresh page.
 * Truth: the printout (tests/attr/fixture.h), and "load BASE" for each load.
 * Usage: remap LIBRARY */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include "fixture.h"
#include "remap.h"

#define ROUNDS 400

/* The extent of the loaded object at dlpi_addr *(uintptr_t *)arg */
static int extent(struct dl_phdr_info *i, size_t size, void *arg)
{
	uintptr_t *x = arg;
	int k;

	(void)size;
	if (i->dlpi_addr != x[0])
		return 0;
	for (k = 0; k < i->dlpi_phnum; k++)
		if (i->dlpi_phdr[k].p_type == PT_LOAD &&
		    i->dlpi_phdr[k].p_vaddr + i->dlpi_phdr[k].p_memsz > x[1])
			x[1] = i->dlpi_phdr[k].p_vaddr + i->dlpi_phdr[k].p_memsz;
	return 1;
}

static void *load(const char *lib, void (**fn)(struct rec *, long), size_t *span)
{
	uintptr_t x[2];
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	Dl_info info;

	if (!h || !(*fn = (void (*)(struct rec *, long))dlsym(h, "touch")) ||
	    !dladdr((void *)*fn, &info)) {
		fprintf(stderr, "remap: %s\n", dlerror());
		exit(1);
	}
	printf("load %p\n", info.dli_fbase);
	x[0] = (uintptr_t)info.dli_fbase;
	x[1] = 0;
	dl_iterate_phdr(extent, x);
	*span = (x[1] + PAGE - 1) & ~(PAGE - 1);
	return h;
}

static void run(void (*fn)(struct rec *, long))
{
	int i;

	for (i = 0; i < ROUNDS; i++) {
		struct rec *r = place(sizeof(*r), offsetof(struct rec, c));

		print_object("rec", r);
		fn(r, i);
	}
}

int main(int argc, char **argv)
{
	void (*fn)(struct rec *, long);
	Dl_info info;
	size_t span;
	void *h, *base, *hold;

	if (argc != 2) {
		fprintf(stderr, "usage: remap LIBRARY\n");
		return 2;
	}
	arena_init(2 * 2 * ROUNDS + 16);
	FIELD(rec, a); FIELD(rec, b); FIELD(rec, c);
	SIZE(rec);
	h = load(argv[1], &fn, &span);
	dladdr((void *)fn, &info);
	base = info.dli_fbase;
	run(fn);
	if (dlclose(h)) {
		fprintf(stderr, "remap: %s\n", dlerror());
		return 1;
	}
	/* the first load's range stays taken: the second goes elsewhere */
	hold = mmap(base, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (hold == MAP_FAILED) {
		perror("remap: mmap");
		return 1;
	}
	load(argv[1], &fn, &span);
	run(fn);
	fflush(stdout);
	return 0;
}
