/* A profile straight from a perf.data: attribution set up from a profile
 * source, one run, the heat turned into a profile. */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "hitmap/attribute.h"
#include "hitmap/heat.h"
#include "attr/attribute-int.h"

static int profile_setup(hm_attr *a, const struct hm_profile_source *src)
{
	size_t i;
	int err;

	if (src->load && (err = hm_attr_set_load_opts(a, src->load)))
		return err;
	for (i = 0; i < src->nr_binaries; i++)
		if ((err = hm_attr_add_binary(a, src->binaries[i])))
			return err;
	if (src->vmlinux && (err = hm_attr_set_vmlinux(a, src->vmlinux)))
		return err;
	if (strcmp(src->perf_data, "-") && (err = hm_attr_set_kcore(a, src->perf_data)) < 0)
		return err;
	for (i = 0; i < src->nr_objects; i++)
		if ((err = hm_attr_add_object(a, src->objects[i])))
			return err;
	return 0;
}

int hm_profile_from_perf(const struct hm_profile_source *src, hm_profile **out)
{
	hm_attr *a = hm_attr_new();
	hm_perf_reader *r = NULL;
	hm_heat *h = NULL;
	hm_report_stats st;
	hm_profile *p;
	int err;

	if (!a)
		return -ENOMEM;
	err = profile_setup(a, src);
	if (!err && !(r = hm_perf_reader_open(src->perf_data)))
		err = errno ? -errno : -EIO;
	if (!err)
		hm_attr_set_recording_arch(a, hm_perf_reader_info(r)->arch);
	if (!err && !(h = hm_heat_new(hm_attr_line_size(a))))
		err = -ENOMEM;
	if (!err)
		err = hm_attr_run(a, r, h, &st);
	if (!err) {
		uint64_t att = 0;

		for (int b = 0; b < HM_NR_BUCKETS; b++)
			if (hm_attr_bucket_attributed(b))
				att += st.buckets[b];
		p = hm_heat_profile(h, src->perf_data, hm_report_kind(&st), st.samples, att);
		if (p)
			*out = p;
		else
			err = -ENOMEM;
	}
	hm_heat_free(h);
	hm_perf_reader_close(r);
	hm_attr_free(a);
	return err;
}

