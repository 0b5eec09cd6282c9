/* libFuzzer target: the perf.data reader (file and pipe mode are told apart
 * by the header, so one target covers both), through both ways of reading
 * records: one at a time, and samples in bulk, alternating as report does
 * (the batch size comes from the input's last byte, so runs of every
 * length meet every record boundary).  A tracepoint sample's fields are
 * read by its event's format (TRACING_DATA), as report reads the kmem
 * tracepoints. */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "hitmap/perfdata.h"
#include "fuzz-diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every field of a tracepoint sample, as numbers and strings. */
static size_t tp_fields(const hm_perf_info *info, const hm_sample *s)
{
	const hm_perf_tracepoint *tp;
	const char *str;
	size_t i, n = 0, len;
	uint64_t v;

	if (s->attr >= info->nr_events || !(tp = info->events[s->attr].tp))
		return 0;
	for (i = 0; i < tp->nr_fields; i++) {
		const hm_perf_tp_field *f = &tp->fields[i];

		if (!hm_perf_tp_field_find(tp, f->name))	/* names are strings */
			return 0;
		if (!hm_perf_tp_u64(info, s, f, &v))
			n += (size_t)v;
		if (f->data_loc && !hm_perf_tp_str(info, s, f, &str, &len))
			n += len ? (unsigned char)str[len - 1] : 0;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const hm_perf_info *info;
	hm_perf_reader *r;
	hm_perf_record rec;
	hm_sample batch[16];
	size_t i, len = 0, max = size ? data[size - 1] % 17 : 0;
	int n = 0;

	fuzz_init();
	r = hm_perf_reader_open_mem(data, size, "fuzz.data");
	if (!r)
		return 0;
	/* The cap only bounds the run time of one input; the reader itself must
	 * never loop without consuming bytes. */
	while (n++ < 100000) {
		if (max && hm_perf_reader_next_samples(r, batch, max))
			continue;
		if (hm_perf_reader_next(r, &rec) <= 0)
			break;
		if (rec.kind == HM_PERF_SAMPLE)
			len += tp_fields(hm_perf_reader_info(r), &rec.u.sample);
		/* a TEXT_POKE's bytes must lie in the record */
		if (rec.kind == HM_PERF_TEXT_POKE) {
			for (i = 0; i < rec.u.poke.old_len; i++)
				len += rec.u.poke.old_bytes[i];
			for (i = 0; i < rec.u.poke.new_len; i++)
				len += rec.u.poke.new_bytes[i];
		}
	}
	/* Every string the header handed out must be readable. */
	info = hm_perf_reader_info(r);
	for (i = 0; info && i < info->nr_events; i++)
		if (info->events[i].name)
			len += strlen(info->events[i].name);
	if (info && info->hostname)
		len += strlen(info->hostname);
	if (info && info->cpuid)
		len += strlen(info->cpuid);
	(void)len;
	hm_perf_reader_close(r);
	return 0;
}
