#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/util.h"

void hm_sbuf_insert(hm_sbuf *b, size_t at, const char *s, size_t n)
{
	if (b->err)
		return;
	if (b->len + n > HM_SBUF_MAX) {
		b->err = -EFBIG;
		return;
	}
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->err = -ENOMEM;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memmove(b->p + at + n, b->p + at, b->len - at);
	memcpy(b->p + at, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

void hm_sbuf_putn(hm_sbuf *b, const char *s, size_t n)
{
	hm_sbuf_insert(b, b->len, s, n);
}

void hm_sbuf_puts(hm_sbuf *b, const char *s)
{
	hm_sbuf_insert(b, b->len, s, strlen(s));
}

void hm_sbuf_printf(hm_sbuf *b, const char *fmt, ...)
{
	char tmp[512], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		hm_sbuf_putn(b, tmp, (size_t)n);
		return;
	}
	big = malloc((size_t)n + 1);
	if (!big) {
		b->err = -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	hm_sbuf_putn(b, big, (size_t)n);
	free(big);
}

int hm_grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elem)
			return -ENOMEM;
		ncap *= 2;
	}
	p = realloc(*ptr, ncap * elem);
	if (!p)
		return -ENOMEM;
	*ptr = p;
	*cap = ncap;
	return 0;
}

struct hm_arena_block {
	struct hm_arena_block *next;
	size_t size;
	_Alignas(16) unsigned char data[];
};

#define ARENA_BLOCK (256 * 1024)

/* size bytes at a multiple of align (1 or 16) from the arena's block. */
static void *arena_take(hm_arena *a, size_t size, size_t align)
{
	struct hm_arena_block *b;
	size_t bsize, pad = (align - (a->used & (align - 1))) & (align - 1);
	void *p;

	if (!a->head || a->avail < pad + size) {
		/* Big requests get a block of their own so the current block's tail is
		 * not wasted. */
		bsize = size > ARENA_BLOCK / 4 ? size : ARENA_BLOCK;
		b = calloc(1, sizeof(*b) + bsize);
		if (!b)
			return NULL;
		b->size = bsize;
		if (size > ARENA_BLOCK / 4 && a->head) {
			b->next = a->head->next;
			a->head->next = b;
			return b->data;
		}
		b->next = a->head;
		a->head = b;
		a->used = 0;
		a->avail = bsize;
		pad = 0;
	}
	p = a->head->data + a->used + pad;
	a->used += pad + size;
	a->avail -= pad + size;
	return p;
}

void *hm_arena_alloc(hm_arena *a, size_t size)
{
	return arena_take(a, (size + 15) & ~(size_t)15, 16);
}

/* Strings are packed, not 16-byte aligned: an interned name of 20 bytes
 * would take 32, and a report interns one per instance it names (tens of
 * thousands on a page-fault recording, twice: attr/'s and the heat's). */
char *hm_arena_strndup(hm_arena *a, const char *s, size_t n)
{
	char *p = arena_take(a, n + 1, 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

void *hm_huge_alloc(size_t size)
{
	void *p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		errno = ENOMEM;
		return NULL;
	}
#ifdef MADV_HUGEPAGE
	/* only advice: without transparent huge pages it is small pages */
	(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	return p;
}

void hm_huge_free(void *p, size_t size)
{
	if (p)
		munmap(p, size ? size : 1);
}

int hmi_sort_keyed(struct hmi_keyed *v, size_t n)
{
	struct hmi_keyed *tmp, *src = v, *dst;
	size_t (*count)[256], i, j, b;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	count = calloc(8, sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -ENOMEM;
	}
	/* every byte's counts in one read */
	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++)
			count[b][(v[i].key >> (8 * b)) & 0xff]++;
	dst = tmp;
	for (b = 0; b < 8; b++) {
		size_t *c = count[b], sum = 0;
		unsigned shift = 8 * (unsigned)b;

		if (c[(v[0].key >> shift) & 0xff] == n)
			continue;	/* one value of this byte: nothing moves */
		for (j = 0; j < 256; j++) {	/* counts into first places */
			size_t k = c[j];

			c[j] = sum;
			sum += k;
		}
		for (i = 0; i < n; i++)
			dst[c[(src[i].key >> shift) & 0xff]++] = src[i];
		dst = src;
		src = src == v ? tmp : v;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(count);
	free(tmp);
	return 0;
}

void hm_arena_free(hm_arena *a)
{
	struct hm_arena_block *b = a->head, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
	a->used = a->avail = 0;
}

uint64_t hm_hash_bytes(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	return hm_hash_u64(h);
}

/* A string's hash, eight bytes a step: tables hold tens of thousands of
 * names of some twenty bytes (instances, "task@0x...", a library's
 * symbols), and a byte a step was most of the cost of interning one. */
uint64_t hmi_hash_str(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;
	size_t i;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 31;
	}
	for (w = 0, i = 0; i < n; i++)
		w = w << 8 | (unsigned char)s[i];
	return hm_hash_u64(h ^ w);
}

static int strtab_rehash(hm_strtab *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 1024, i;
	const char **slots = calloc(n, sizeof(*slots));
	uint32_t *hashes = malloc(n * sizeof(*hashes));

	if (!slots || !hashes) {
		free(slots);
		free(hashes);
		return -ENOMEM;
	}
	for (i = 0; i < t->nslots; i++) {
		size_t j;

		if (!t->slots[i])
			continue;
		j = t->hashes[i] & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = t->slots[i];
		hashes[j] = t->hashes[i];
	}
	free(t->slots);
	free(t->hashes);
	t->slots = slots;
	t->hashes = hashes;
	t->nslots = n;
	return 0;
}

/* The slot of s (n bytes) whose hash is h: its entry's, or the free one it
 * would take. */
static size_t strtab_slot(const hm_strtab *t, const char *s, size_t n, uint32_t h)
{
	size_t j = h & (t->nslots - 1);

	for (; t->slots[j]; j = (j + 1) & (t->nslots - 1))
		if (t->hashes[j] == h && strncmp(t->slots[j], s, n) == 0 && t->slots[j][n] == 0)
			break;
	return j;
}

const char *hm_strtab_intern_n(hm_strtab *t, const char *s, size_t n)
{
	uint32_t h;
	size_t j;
	char *copy;

	if ((t->count + 1) * 2 > t->nslots && strtab_rehash(t) < 0)
		return NULL;
	h = (uint32_t)hmi_hash_str(s, n);
	j = strtab_slot(t, s, n, h);
	if (t->slots[j])
		return t->slots[j];
	copy = hm_arena_strndup(&t->arena, s, n);
	if (!copy)
		return NULL;
	t->slots[j] = copy;
	t->hashes[j] = h;
	t->count++;
	return copy;
}

const char *hm_strtab_intern(hm_strtab *t, const char *s)
{
	return hm_strtab_intern_n(t, s, strlen(s));
}

void hm_strtab_free(hm_strtab *t)
{
	free(t->slots);
	free(t->hashes);
	t->slots = NULL;
	t->hashes = NULL;
	t->nslots = t->count = 0;
	hm_arena_free(&t->arena);
}

unsigned hm_edit_distance(const char *a, const char *b, unsigned max)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned row[256], prev, tmp, best;

	if (lb >= sizeof(row) / sizeof(row[0]) || la >= 256)
		return max + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			tmp = row[j];
			row[j] = row[j] + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (prev + cost < row[j])
				row[j] = prev + cost;
			prev = tmp;
			if (row[j] < best)
				best = row[j];
		}
		if (best > max)
			return max + 1;
	}
	return row[lb] > max ? max + 1 : row[lb];
}

const char *hm_strtab_adopt(hm_strtab *t, const char *s)
{
	size_t j, n = strlen(s);
	uint32_t h;

	if ((t->count + 1) * 2 > t->nslots && strtab_rehash(t) < 0)
		return NULL;
	h = (uint32_t)hmi_hash_str(s, n);
	j = strtab_slot(t, s, n, h);
	if (t->slots[j])
		return t->slots[j];
	t->slots[j] = s;
	t->hashes[j] = h;
	t->count++;
	return s;
}

FILE *hm_fopen_regular(const char *path)
{
	struct stat st;
	FILE *f;
	int fd;

	/* O_NONBLOCK so that opening a FIFO without a writer returns at once;
	 * the type check then refuses it. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int err = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;

		close(fd);
		errno = err;
		return NULL;
	}
	if (fcntl(fd, F_SETFL, 0) < 0 || !(f = fdopen(fd, "r"))) {
		int err = errno;

		close(fd);
		errno = err;
		return NULL;
	}
	return f;
}

const char *hm_open_error(int err)
{
	if (err == ENODEV)
		return "not a regular file";
	if (err == EISDIR)
		return "is a directory";
	return strerror(err);
}

static int is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

/* The build prefix of a declaration's path (a build folder, debian/build/...)
 * is not known; the longest tail that names a file under root is the path a
 * reader of that tree means. */
char *hm_source_find(const char *root, const char *decl, const char **rel)
{
	size_t rl = strlen(root);
	const char *p = decl;

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (!strncmp(decl, root, rl) && decl[rl] == '/')
		p = decl + rl + 1;
	for (; p && *p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL) {
		char *full;

		while (*p == '/' || (p[0] == '.' && p[1] == '/'))
			p += *p == '/' ? 1 : 2;
		if (!*p || asprintf(&full, "%.*s/%s", (int)rl, root, p) < 0)
			return NULL;
		if (is_file(full)) {
			*rel = p;
			return full;
		}
		free(full);
	}
	return NULL;
}

size_t hm_utf8_len(const unsigned char *s, size_t n)
{
	unsigned long cp;
	size_t len, i;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}
