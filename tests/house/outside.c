/* An outside program, built against the installed library with nothing but
 * `pkg-config --cflags --libs hitmap`: prints the layout of one struct of a
 * binary as pahole does.  usage: outside BINARY STRUCT */
#include <stdio.h>
#include <string.h>
#include <hitmap/binary.h>
#include <hitmap/output.h>
#include <hitmap/types.h>

int main(int argc, char **argv)
{
	HM_OPTS(hm_print_opts, po, .cacheline_size = 64);
	hm_binary *bin;
	hm_types *t;
	hm_type_id id;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: outside BINARY STRUCT\n");
		return 2;
	}
	bin = hm_binary_open(argv[1]);
	if (!bin) {
		perror(argv[1]);
		return 3;
	}
	err = hm_types_load(bin, NULL, &t);
	if (err) {
		fprintf(stderr, "%s: cannot load types: %s\n", argv[1], strerror(-err));
		return 3;
	}
	id = hm_types_find_struct(t, argv[2]);
	if (id == HM_TYPE_NONE) {
		fprintf(stderr, "%s: no struct %s\n", argv[1], argv[2]);
		return 3;
	}
	err = hm_layout_print(stdout, t, id, &po);
	hm_types_free(t);
	hm_binary_close(bin);
	return err ? 3 : 0;
}
