/* A library loaded twice at two addresses by tests/attr/remap.c: its
 * write to r->c is each sample. */
#include "remap.h"

__attribute__((noinline)) void touch(struct rec *r, long v)
{
	r->c = v;
}
