/* libFuzzer target: the perf.data reader (file and pipe mode are told apart
 * by the header, so one target covers both), through both ways of reading
 * records: one at a time, and samples in bulk, alternating as report does
 * (the batch size comes from the input's last byte, so runs of every
 * length meet every record boundary).  A tracepoint sample's fields are
 * read by its event's format (TRACING_DATA), as report reads the kmem
 * tracepoints.
 *
 * An input that starts with "PERFDIR1" is a perf.data directory (perf
 * record --threads): then come up to 8 parts, each a little-endian u32
 * length and its bytes, the first DIR/data, the next data.0, data.1 ...;
 * they are written to a scratch directory (one per process) and read from
 * there, as report reads a directory. */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hitmap/perfdata.h"
#include "fuzz-diag.h"

#define DIR_MAGIC "PERFDIR1"
#define DIR_PARTS 8

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

static char scratch[256];	/* where a directory input is written */

static void part_path(char *path, size_t n, int k)
{
	if (k == 0)
		snprintf(path, n, "%s/data", scratch);
	else
		snprintf(path, n, "%s/data.%d", scratch, k - 1);
}

/* The scratch directory goes when the process ends. */
static void remove_dir(void)
{
	char path[300];
	int k;

	for (k = 0; k < DIR_PARTS; k++) {
		part_path(path, sizeof(path), k);
		unlink(path);
	}
	rmdir(scratch);
}

/* Write the parts of a directory input; its path, or NULL. */
static const char *write_dir(const uint8_t *data, size_t size)
{
	char path[300];
	size_t at = sizeof(DIR_MAGIC) - 1;
	int k;

	if (!scratch[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(scratch, sizeof(scratch), "%s/fuzz-perfdir.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(scratch)) {
			scratch[0] = 0;
			return NULL;
		}
		atexit(remove_dir);
	}
	for (k = 0; k < DIR_PARTS; k++) {
		uint32_t len = 0;
		FILE *f;

		part_path(path, sizeof(path), k);
		if (size - at < 4) {
			unlink(path);	/* no such part: no such file */
			continue;
		}
		memcpy(&len, data + at, 4);
		at += 4;
		if (len > size - at)
			len = (uint32_t)(size - at);
		if (!(f = fopen(path, "wb")))
			return NULL;
		if (len && fwrite(data + at, 1, len, f) != len) {
			fclose(f);
			return NULL;
		}
		fclose(f);
		at += len;
	}
	return scratch;
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
	if (size >= sizeof(DIR_MAGIC) - 1 && !memcmp(data, DIR_MAGIC, sizeof(DIR_MAGIC) - 1)) {
		const char *dir = write_dir(data, size);

		r = dir ? hm_perf_reader_open(dir) : NULL;
	} else {
		r = hm_perf_reader_open_mem(data, size, "fuzz.data");
	}
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
