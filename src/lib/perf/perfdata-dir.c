/* perfdata-dir: the streams of a perf.data directory.
 *
 * perf record --threads writes a directory whose DIR/data holds the header,
 * the features and perf's own records (its main stream), and whose
 * DIR/data.0, data.1 ... hold one ring buffer's records each, as the kernel
 * wrote them: raw records from offset 0, no header.  The DIR_FORMAT feature
 * says which layout a directory has (version 1: data.N streams; 0 or none:
 * the one file, as perf record --kcore writes).  perf reads every data.*
 * file and sorts all records by time before delivering any.
 *
 * The records of one ring buffer are in time order already, so merging the
 * streams by the time of the record at each one's head gives time order
 * with one record per stream held: a sample comes after the MMAP and COMM
 * records before it in time, whichever buffer they went to (the program's
 * own MMAPs go to the buffer of the CPU it ran on then, its samples to
 * another).  A record that carries no time (perf's own, or a file without
 * sample_id_all) keeps its place in its stream, taking the time of the
 * record before it.  Records of equal time (on two CPUs, to the
 * nanosecond: it happens) come in the order perf queues them, which is the
 * order it reads them in: 2 MiB of each stream in turn, the main stream
 * first, then the data.N in the order the directory lists them.
 *
 * Each stream is read through the reader's own buffer and inflation state,
 * swapped in while it is read (use()), so every message names its file and
 * an offset in it.  A stream that ends inside a record is malformed: unlike
 * the main file's data section, a data.N has no size that says it was cut.
 */
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perf/perfdata-rd.h"

/* Streams are many (one per CPU): smaller buffers than the main file's;
 * a longer record still grows its buffer to fit. */
#define DIR_BUF (64u << 10)
#define DIR_MAX_STREAMS 65536
/* how much of one stream perf reads before the next one's */
#define PERF_READER_CHUNK (2u << 20)

/* Move the stream fields between the reader and in[]. */
static void save(hm_perf_reader *r, struct pr_input *in)
{
	in->name = r->name;
	in->fd = r->fd;
	in->mem = r->mem;
	in->mem_len = r->mem_len;
	in->mem_direct = r->mem_direct;
	in->file_size = r->file_size;
	in->s = r->s;
	in->z = r->z;
	in->in_zstd = r->in_zstd;
	in->at_cut = r->at_cut;
}

static void load(hm_perf_reader *r, const struct pr_input *in)
{
	r->name = in->name;
	r->fd = in->fd;
	r->mem = in->mem;
	r->mem_len = in->mem_len;
	r->mem_direct = in->mem_direct;
	r->file_size = in->file_size;
	r->s = in->s;
	r->z = in->z;
	r->in_zstd = in->in_zstd;
	r->at_cut = in->at_cut;
}

/* Make stream i the one the reader's fields hold. */
static void use(hm_perf_reader *r, size_t i)
{
	if (r->cur == i)
		return;
	save(r, &r->in[r->cur]);
	load(r, &r->in[i]);
	r->cur = i;
}

/* The number N of a name "data.N", -1 for any other name. */
static long stream_number(const char *name)
{
	const char *p = name + 5;
	long n = 0;

	if (strncmp(name, "data.", 5) || !*p || (p[0] == '0' && p[1]))
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || n >= DIR_MAX_STREAMS)
			return -1;
		n = n * 10 + (*p - '0');
	}
	return n;
}

/* The data.N names of the directory: (*rank)[N] is 1 + its place in the
 * listing (0: no such file), *count one past the largest N; -EBADMSG for a
 * data.* that is not a stream. */
static int list_streams(hm_perf_reader *r, int dfd, const char *path,
			uint32_t **rank, size_t *count, char *first, size_t first_len)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	uint32_t *seen = NULL, place = 0;
	size_t cap = 0, n = 0;
	int err = 0;

	if (!d) {
		err = errno;
		if (fd >= 0)
			close(fd);
		return hm_fail(err, "%s: cannot list the directory: %s", path, strerror(err));
	}
	rewinddir(d);
	*first = 0;
	while (!err && (de = readdir(d))) {
		long k;

		if (strncmp(de->d_name, "data.", 5))
			continue;
		k = stream_number(de->d_name);
		if (k < 0) {
			err = hm_fail(EBADMSG, "%s/%s: not a stream of the recording, whose files "
				      "are data and data.N (N = 0, 1 ...)", path, de->d_name);
			break;
		}
		if ((size_t)k >= cap) {
			size_t nc = cap ? cap : 64;
			uint32_t *ns;

			while (nc <= (size_t)k)
				nc *= 2;
			if (!(ns = realloc(seen, nc * sizeof(*ns)))) {
				err = -ENOMEM;
				break;
			}
			memset(ns + cap, 0, (nc - cap) * sizeof(*ns));
			seen = ns;
			cap = nc;
		}
		seen[k] = ++place;
		if ((size_t)k + 1 > n)
			n = (size_t)k + 1;
		if (!*first)
			snprintf(first, first_len, "%s", de->d_name);
	}
	closedir(d);
	(void)r;
	if (err) {
		free(seen);
		return err;
	}
	*rank = seen;
	*count = n;
	return 0;
}

/* Open data.N of the directory into *in. */
static int open_stream(hm_perf_reader *r, int dfd, const char *path, size_t n,
		       struct pr_input *in)
{
	char base[32];
	size_t len = strlen(path) + sizeof(base) + 2;
	unsigned char magic[8];
	struct stat st;
	int e;

	snprintf(base, sizeof(base), "data.%zu", n);
	in->fd = -1;
	if (!(in->name = malloc(len)))
		return -ENOMEM;
	snprintf(in->name, len, "%s/%s", path, base);
	/* O_NONBLOCK: a FIFO named data.N opens at once, and is refused */
	in->fd = openat(dfd, base, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (in->fd < 0 || fstat(in->fd, &st) || !S_ISREG(st.st_mode)) {
		e = in->fd < 0 ? errno : EINVAL;
		return hm_fail(e, "%s: cannot read the stream: %s", in->name,
			       in->fd < 0 ? strerror(e) : hm_pr_file_kind(st.st_mode));
	}
	in->file_size = (uint64_t)st.st_size;
	/* a whole perf.data file where a raw stream belongs: refused, never
	 * read as records */
	if (pread(in->fd, magic, 8, 0) == 8 && (!memcmp(magic, "PERFILE2", 8) ||
	    !memcmp(magic, "2ELIFREP", 8)))
		return hm_fail(EBADMSG, "%s: a perf.data file (its header at offset 0x0), not "
			       "the raw stream of records a directory's data.N holds", in->name);
	if (!(in->s.buf = malloc(DIR_BUF)))
		return -ENOMEM;
	in->s.cap = DIR_BUF;
	in->s.limit = in->file_size;
	(void)posix_fadvise(in->fd, 0, (off_t)in->file_size, POSIX_FADV_SEQUENTIAL);
	(void)r;
	return 0;
}

int hm_pr_dir_open(hm_perf_reader *r, int dfd, const char *path)
{
	uint32_t *present = NULL;
	char first[300];
	size_t count = 0, i;
	int err;

	if ((err = list_streams(r, dfd, path, &present, &count, first, sizeof(first))))
		return err;
	if (!r->has_dir_format || r->dir_version == 0) {
		free(present);
		/* perf reads one file here (perf record --kcore's directory) */
		if (count && (r->info.truncated || r->info.features_cut_at))
			return hm_fail(EBADMSG, "%s/%s: a stream beside %s, which perf did not "
				       "finish writing: no DIR_FORMAT feature says how to read "
				       "them", path, first, r->name);
		if (count)
			return hm_fail(EBADMSG, "%s/%s: a stream beside a single-file recording "
				       "(%s has %s): refused rather than left unread", path, first,
				       r->name, r->has_dir_format ? "directory format version 0" :
				       "no DIR_FORMAT feature");
		return 0;
	}
	if (r->dir_version != 1) {
		free(present);
		return hm_fail(EBADMSG, "%s: DIR_FORMAT feature: directory format version %"
			       PRIu64 " is not known (1: data.N streams) at offset 0x%" PRIx64,
			       r->name, r->dir_version, r->dir_format_off);
	}
	if (!count) {
		free(present);
		return hm_fail(EBADMSG, "%s: no data.N stream in the directory, which its "
			       "DIR_FORMAT feature (version 1 at offset 0x%" PRIx64 ") says "
			       "holds them", r->name, r->dir_format_off);
	}
	for (i = 0; i < count; i++)
		if (!present[i])
			break;
	if (i < count) {
		free(present);
		return hm_fail(EBADMSG, "%s/data.%zu: missing: the directory holds data.0 to "
			       "data.%zu", path, i, count - 1);
	}
	if (!(r->in = calloc(count + 1, sizeof(*r->in)))) {
		free(present);
		return -ENOMEM;
	}
	r->nr_in = count + 1;
	r->cur = 0;
	for (i = 0; i < r->nr_in; i++) {
		r->in[i].fd = -1;
		r->in[i].rank = i ? present[i - 1] : 0;
	}
	free(present);
	save(r, &r->in[0]);
	for (i = 0; i < count; i++)
		if ((err = open_stream(r, dfd, path, i, &r->in[i + 1])))
			return err;
	return 0;
}

int hm_pr_dir_next(hm_perf_reader *r, hm_perf_record *rec)
{
	for (;;) {
		struct pr_input *best = NULL;
		size_t i, bi = 0;
		uint64_t t;
		int ret;

		if (r->err)
			return r->err;
		/* every stream's head, then the earliest */
		for (i = 0; i < r->nr_in; i++) {
			struct pr_input *in = &r->in[i];

			if (!in->done && !in->have) {
				use(r, i);
				ret = hm_pr_raw_next(r, &in->p, &in->type, &in->size, &in->off);
				if (ret < 0)
					return r->err = ret;
				if (ret == 0) {
					in->done = 1;
					continue;
				}
				in->have = 1;
				if (hm_pr_record_time(r, in->p, in->type, in->size, &t))
					in->last = t;
				in->time = in->last;
				/* perf queues a compressed chunk's records when it
				 * reads the chunk */
				if (r->in_zstd) {
					in->chunk = in->zchunk;
				} else {
					in->chunk = in->zchunk = in->nchunk;
					in->csize += in->size;
					if (in->csize >= PERF_READER_CHUNK) {
						in->csize = 0;
						in->nchunk++;
					}
				}
			}
			if (in->have && (!best || in->time < best->time ||
					 (in->time == best->time && (in->chunk < best->chunk ||
					  (in->chunk == best->chunk && in->rank < best->rank))))) {
				best = in;
				bi = i;
			}
		}
		if (!best)
			return 0;
		/* the reader keeps this stream's fields until the next call, so
		 * the record's pointers and hmi_perf_reader_name() are its */
		use(r, bi);
		best->have = 0;
		ret = hm_pr_dispatch(r, rec, best->p, best->type, best->size, best->off);
		if (ret < 0)
			return r->err = ret;
		if (ret > 0)
			return 1;
	}
}

void hm_pr_dir_free(hm_perf_reader *r)
{
	size_t i;

	if (!r->nr_in)
		return;
	/* the reader's fields are the current stream's, newer than its
	 * saved copy (a decompression context made since): saved first,
	 * whichever stream it is, before the loop loads the others' */
	save(r, &r->in[r->cur]);
	r->cur = 0;
	for (i = 1; i < r->nr_in; i++) {
		struct pr_input *in = &r->in[i];

		load(r, in);
		hm_pr_zstd_free(r);
		if (in->fd >= 0)
			close(in->fd);
		free(in->s.buf);
		free(in->name);
	}
	load(r, &r->in[0]);
	free(r->in);
	r->in = NULL;
	r->nr_in = 0;
}
