/* typedump: print what the type loader read, for the types tests.
 *
 *   typedump [-C NAME[,NAME...]] [-V] [-l] [-d] FILE
 *
 * Default: every struct hm_types_structs() lists.  Per struct one line
 * "KIND NAME size S align A members N decl FILE:LINE", then per member
 * "  NAME off O [bit B width W unit U] [flags] | DECLARATION".
 * -l: only "NAME SIZE" lines.
 * -o: oracle form, comparable with what the compiler prints: "KIND NAME size S
 * align A", then "NAME.MEMBER off O size Z align A" (named non-bitfield
 * members; the alignment of the member's type),
 * "NAME.MEMBER bits O:B W" (bitfields) and, for pointers to a struct,
 * " -> complete" or " -> declaration".
 * -c NAME: how many table entries are complete structs named NAME.
 * -m: read FILE into memory and open it with hm_binary_open_mem().
 * -y NAME: no types; the binary's facts ("arch A cacheline C build-id B")
 * and symbol NAME ("sym NAME 0xADDR SIZE"), then what hm_binary_object_at
 * and hm_binary_func_at find one byte into it.  -V: also global variables ("var NAME ADDR
 * DECLARATION").  -d: "TYPE|DECLARATOR" split form of each member too.
 * -k DIR: use the type cache in DIR, reading only; -K DIR: reading and
 * writing (default: no cache).  -j N: read DWARF on N threads.  -A: every
 * table entry by id ("ID KIND NAME size S target T nr N" and its members
 * "  NAME off O type T"), after the rest: ids depend on the walk's order.
 * Exit 0, 2 (unknown -C name, with suggestions), 3 (load failure). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include "hitmap/hitmap.h"
#include "hitmap/types.h"

static void diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	(void)ctx;
	if (level == HM_DIAG_DEBUG && !getenv("TYPEDUMP_DEBUG"))
		return;
	fprintf(stderr, "%s: %s\n", level == HM_DIAG_ERROR ? "error" :
		level == HM_DIAG_DEBUG ? "debug" : "warning", msg);
}

static const char *kind_name(enum hm_type_kind k)
{
	return k == HM_KIND_UNION ? "union" : k == HM_KIND_CLASS ? "class" : "struct";
}

static void dump_oracle(const hm_types *t, hm_type_id id)
{
	const hm_type *ty = hm_types_get(t, id);
	const hm_member *m = hm_types_members(t, ty);

	const char *sname = ty->name ? ty->name : "(anon)";

	printf("%s %s size %llu align %u\n", kind_name(ty->kind), sname,
	       (unsigned long long)ty->size, hm_types_alignof(t, id));
	for (uint32_t i = 0; i < ty->nr; i++) {
		const hm_type *mt;

		if (!m[i].name || (m[i].flags & HM_MEMBER_STATIC))
			continue;
		if (m[i].flags & HM_MEMBER_BITFIELD) {
			printf("%s.%s bits %llu:%u %u\n", sname, m[i].name,
			       (unsigned long long)m[i].offset, m[i].bit_offset, m[i].bit_size);
			continue;
		}
		printf("%s.%s off %llu size %llu align %u", sname, m[i].name,
		       (unsigned long long)m[i].offset,
		       (unsigned long long)hm_types_sizeof(t, m[i].type),
		       hm_types_alignof(t, m[i].type));
		mt = hm_types_get(t, hm_types_resolve(t, m[i].type));
		if (mt->kind == HM_KIND_POINTER) {
			mt = hm_types_get(t, hm_types_resolve(t, mt->target));
			if (mt->kind == HM_KIND_STRUCT || mt->kind == HM_KIND_UNION)
				printf(" -> %s", mt->declaration ? "declaration" : "complete");
		}
		printf("\n");
	}
}

static void dump(const hm_types *t, hm_type_id id, int split)
{
	const hm_type *ty = hm_types_get(t, id);
	const hm_member *m = hm_types_members(t, ty);
	char buf[512], tb[256], db[256];

	printf("%s %s size %llu align %u members %u decl %s:%u\n", kind_name(ty->kind),
	       ty->name ? ty->name : "(anon)", (unsigned long long)ty->size,
	       hm_types_alignof(t, id), ty->nr, ty->decl_file ? ty->decl_file : "?",
	       ty->decl_line);
	for (uint32_t i = 0; i < ty->nr; i++) {
		printf("  %s off %llu", m[i].name ? m[i].name : "(anon)",
		       (unsigned long long)m[i].offset);
		if (m[i].flags & HM_MEMBER_BITFIELD)
			printf(" bit %u width %u unit %u", m[i].bit_offset, m[i].bit_size,
			       m[i].byte_size);
		if (m[i].flags & HM_MEMBER_INHERITANCE)
			printf(" inherit");
		if (m[i].flags & HM_MEMBER_VIRTUAL_BASE)
			printf(" virtual");
		if (m[i].flags & HM_MEMBER_STATIC)
			printf(" static");
		if (m[i].flags & HM_MEMBER_ARTIFICIAL)
			printf(" artificial");
		if (m[i].flags & HM_MEMBER_PUBLIC)
			printf(" public");
		if (m[i].flags & HM_MEMBER_PROTECTED)
			printf(" protected");
		if (m[i].flags & HM_MEMBER_PRIVATE)
			printf(" private");
		if (m[i].alignment)
			printf(" aligned %u", m[i].alignment);
		hm_types_declare(t, m[i].type, m[i].name, buf, sizeof(buf));
		printf(" size %llu | %s", (unsigned long long)hm_types_sizeof(t, m[i].type), buf);
		if (split) {
			hm_types_declare_split(t, m[i].type, m[i].name, tb, sizeof(tb), db, sizeof(db));
			printf(" | %s|%s", tb, db);
		}
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	/* what the loader itself reads, never the type cache's copy */
	struct hm_load_opts opts = { .sz = sizeof(opts) };
	const char **only = NULL;
	int list = 0, split = 0, oracle = 0, mem = 0, all = 0, c, rc;
	void *image = NULL;
	const char *count = NULL, *sym = NULL;
	hm_binary *bin;
	hm_types *t;

	hm_set_diag(diag, NULL);
	while ((c = getopt(argc, argv, "C:Vldoc:my:k:K:j:A")) != -1) {
		switch (c) {
		case 'C': {
			size_t n = 0;
			char *s = strdup(optarg), *tok;

			only = calloc(strlen(optarg) + 2, sizeof(*only));
			for (tok = strtok(s, ","); tok; tok = strtok(NULL, ","))
				only[n++] = tok;
			opts.only = only;
			break;
		}
		case 'V': opts.variables = 1; break;
		case 'j': opts.threads = (unsigned)atoi(optarg); break;
		case 'A': all = 1; break;
		case 'l': list = 1; break;
		case 'd': split = 1; break;
		case 'o': oracle = 1; break;
		case 'c': count = optarg; break;
		case 'm': mem = 1; break;
		case 'y': sym = optarg; break;
		case 'K': opts.cache_write = 1;	/* fall through */
		case 'k': opts.cache = 1; opts.cache_dir = optarg; break;
		default: return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: typedump [-C NAMES] [-V] [-l] [-d] [-o] [-c NAME] [-m] [-y SYM] [-k|-K DIR] FILE\n");
		return 2;
	}
	if (mem) {
		FILE *f = fopen(argv[optind], "rb");
		long n;

		if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
		    !(image = malloc(n ? n : 1)) || fread(image, 1, n, f) != (size_t)n) {
			fprintf(stderr, "error: %s: cannot read\n", argv[optind]);
			return 3;
		}
		fclose(f);
		bin = hm_binary_open_mem(image, n, argv[optind]);
	} else {
		bin = hm_binary_open(argv[optind]);
	}
	if (!bin) {
		free(image);
		return 3;
	}
	if (sym) {
		const hm_symbol *y = hm_binary_symbol(bin, sym), *o, *f;

		printf("arch %s cacheline %u build-id %s\n", hm_binary_arch(bin),
		       hm_binary_cacheline_size(bin),
		       hm_binary_build_id(bin) ? hm_binary_build_id(bin) : "none");
		if (y) {
			printf("sym %s 0x%llx %llu\n", y->name, (unsigned long long)y->addr,
			       (unsigned long long)y->size);
			o = hm_binary_object_at(bin, y->addr + 1);
			f = hm_binary_func_at(bin, y->addr + 1);
			printf("object_at %s\nfunc_at %s\n", o ? o->name : "none", f ? f->name : "none");
		}
		hm_binary_close(bin);
		free(image);
		return y ? 0 : 1;
	}
	rc = hm_types_load(bin, &opts, &t);
	if (rc) {
		hm_binary_close(bin);
		free(image);
		return 3;
	}
	if (only) {
		for (size_t i = 0; only[i]; i++) {
			hm_type_id id = hm_types_find_struct(t, only[i]);
			const char *sim[3];
			size_t n;

			if (!id && (id = hm_types_find_typedef(t, only[i]))) {
				/* like pahole -C: a typedef name shows its struct */
				printf("typedef %s\n", only[i]);
				id = hm_types_resolve(t, id);
				if (hm_types_get(t, id)->kind < HM_KIND_STRUCT ||
				    hm_types_get(t, id)->kind > HM_KIND_CLASS)
					continue;
			}
			if (id) {
				if (oracle)
					dump_oracle(t, id);
				else
					dump(t, id, split);
				continue;
			}
			n = hm_types_similar(t, only[i], sim, 3);
			fprintf(stderr, "error: %s: no struct named %s", argv[optind], only[i]);
			for (size_t k = 0; k < n; k++)
				fprintf(stderr, "%s%s", k ? ", " : " (did you mean: ", sim[k]);
			fprintf(stderr, "%s\n", n ? ")" : "");
			rc = 2;
		}
	} else if (count) {
		size_t n = 0;

		for (size_t i = 1; i < hm_types_count(t); i++) {
			const hm_type *ty = hm_types_get(t, i);

			n += ty->name && !strcmp(ty->name, count) && !ty->declaration &&
			     (ty->kind == HM_KIND_STRUCT || ty->kind == HM_KIND_UNION);
		}
		printf("%zu\n", n);
	} else {
		const hm_type_id *ids;
		size_t n = hm_types_structs(t, &ids);

		for (size_t i = 0; i < n; i++) {
			const hm_type *ty = hm_types_get(t, ids[i]);

			if (oracle)
				dump_oracle(t, ids[i]);
			else if (list)
				printf("%s %llu\n", ty->name, (unsigned long long)ty->size);
			else
				dump(t, ids[i], split);
		}
	}
	if (opts.variables) {
		for (size_t i = 0; i < hm_types_nr_variables(t); i++) {
			const hm_variable *v = hm_types_variable(t, i);
			char buf[512];

			hm_types_declare(t, v->type, v->name, buf, sizeof(buf));
			printf("var %s 0x%llx %s\n", v->name, (unsigned long long)v->addr, buf);
		}
	}
	for (size_t i = 1; all && i < hm_types_count(t); i++) {
		const hm_type *ty = hm_types_get(t, i);
		const hm_member *m = hm_kind_is_record(ty->kind) ? hm_types_members(t, ty) : NULL;

		printf("%zu %d %s size %llu target %u nr %u\n", i, (int)ty->kind,
		       ty->name ? ty->name : "-", (unsigned long long)ty->size,
		       (unsigned)ty->target, (unsigned)ty->nr);
		for (uint32_t k = 0; m && k < ty->nr; k++)
			printf("  %s off %llu type %u\n", m[k].name ? m[k].name : "-",
			       (unsigned long long)m[k].offset, (unsigned)m[k].type);
	}
	hm_types_free(t);
	hm_binary_close(bin);
	free(image);
	if (only) {
		free((void *)only[0]);
		free(only);
	}
	return rc;
}
