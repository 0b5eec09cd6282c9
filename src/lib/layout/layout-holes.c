/* The holes accounting of layout.c behind an opaque handle, for the
 * printers in output/: they read it through accessors, so its storage is
 * layout's own business. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include "layout/layout-int.h"
#include "layout/layout-lib.h"

struct hmi_layout_holes {
	struct hm_sholes s;
};

int hmi_layout_holes_new(const hm_types *t, const hm_type *ty, struct hmi_layout_holes **out)
{
	struct hmi_layout_holes *h = calloc(1, sizeof(*h));
	int err;

	*out = NULL;
	if (!h)
		return -ENOMEM;
	err = hm_sholes_compute(t, ty, &h->s);
	if (err) {
		free(h);
		return err;
	}
	*out = h;
	return 0;
}

void hmi_layout_holes_free(struct hmi_layout_holes *h)
{
	if (h) {
		hm_sholes_free(&h->s);
		free(h);
	}
}

uint64_t hmi_layout_holes_pre(const struct hmi_layout_holes *h) { return h->s.pre_hole; }
uint32_t hmi_layout_holes_pre_bits(const struct hmi_layout_holes *h) { return h->s.pre_bit_hole; }
uint32_t hmi_layout_holes_count(const struct hmi_layout_holes *h) { return h->s.nr_holes; }
uint32_t hmi_layout_holes_bit_count(const struct hmi_layout_holes *h) { return h->s.nr_bit_holes; }
uint64_t hmi_layout_holes_padding(const struct hmi_layout_holes *h) { return h->s.padding; }
uint32_t hmi_layout_holes_bit_padding(const struct hmi_layout_holes *h) { return h->s.bit_padding; }

uint64_t hmi_layout_holes_member_size(const struct hmi_layout_holes *h, uint32_t i)
{
	return h->s.m[i].size;
}

uint64_t hmi_layout_holes_member_hole(const struct hmi_layout_holes *h, uint32_t i)
{
	return h->s.m[i].hole;
}

uint32_t hmi_layout_holes_member_bit_hole(const struct hmi_layout_holes *h, uint32_t i)
{
	return h->s.m[i].bit_hole;
}

int hmi_layout_holes_member_skipped(const struct hmi_layout_holes *h, uint32_t i)
{
	return h->s.m[i].skipped;
}

int hmi_layout_holes_member_vbase(const struct hmi_layout_holes *h, uint32_t i)
{
	return h->s.m[i].vb_placed;
}

uint32_t hmi_layout_holes_nr_vbases(const struct hmi_layout_holes *h) { return h->s.nr_vb; }

void hmi_layout_holes_vbase(const struct hmi_layout_holes *h, uint32_t k, hm_type_id *type,
			    uint64_t *offset, uint64_t *size, uint64_t *hole)
{
	const struct hm_vbase *v = &h->s.vb[k];

	*type = v->type;
	*offset = v->offset;
	*size = v->size;
	*hole = v->hole;
}

int hmi_layout_holes_packed(const hm_types *t, const hm_type *ty, const struct hmi_layout_holes *h)
{
	return hm_struct_is_packed(t, ty, &h->s);
}
