/* Internal: the perf.data writer's state, shared by perfwrite.c (records)
 * and perfwrite-feat.c (header features). */
#ifndef HM_PERFWRITE_INT_H
#define HM_PERFWRITE_INT_H
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include "hitmap/perfwrite.h"

#define WBUF_SIZE (1u << 20)

struct wevent {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
	uint64_t ids_off;
};

struct hm_perf_writer {
	int fd;
	char *path;
	int swap;
	int err;		/* first error (negative errno), sticky */
	int frozen;		/* attrs written; no more events */
	uint64_t pos;		/* file position of the next byte */
	unsigned char *buf;
	size_t blen;
	struct wevent *ev;
	size_t nr_ev, cap_ev;
	uint64_t attr_off, data_off;
	uint64_t first_time, last_time;
	int have_time;
	struct hm_perf_features feat;
	int feat_set;
	struct wfeat {
		int id;
		void *data;
		size_t len;
	} *xf;
	size_t nr_xf, cap_xf;
	unsigned char rec[65536];
	size_t rlen;
	struct ZSTD_CCtx_s *zc;	/* set: records go into one zstd stream */
	unsigned char *zin;	/* uncompressed bytes waiting for a flush */
	size_t zin_len, zblock, zchunk;
	int zv2, zlevel;
};

/* Output in the file's byte order (perfwrite.c). */
uint64_t hm_pw_o64(const hm_perf_writer *w, uint64_t v);
void hm_pw_bytes(hm_perf_writer *w, const void *p, size_t n);
void hm_pw_u64(hm_perf_writer *w, uint64_t v);
void hm_pw_u32(hm_perf_writer *w, uint32_t v);
void hm_pw_str(hm_perf_writer *w, const char *s);	/* perf's padded string */
void hm_pw_attr_out(const hm_perf_writer *w, const struct perf_event_attr *in,
		    struct perf_event_attr *out);

/* Features (perfwrite-feat.c). */
void hm_pw_free_features(struct hm_perf_features *f);
void hm_pw_fill_defaults(hm_perf_writer *w);
void hm_pw_feature_bits(const hm_perf_writer *w, uint64_t bits[4]);
void hm_pw_write_feature(hm_perf_writer *w, int id);

#endif
