/* Fixture for tests/layout/json-anon.sh: arrays of anonymous structs and
 * named members of anonymous struct type, whose members the text prints
 * inline.  Run, it prints the compiler's offsetof and sizeof of every member
 * the text shows, in the text's order (an array by its first element):
 * "A PATH OFFSET SIZE" for the plain text, "E ..." for what only -E adds. */
#include <stddef.h>
#include <stdio.h>

typedef struct { int t1; char t2; } tdanon;
struct inner { int i1; long i2; };

struct outer {
	int a;
	struct { int n; char c; } arr_anon[3];
	struct { char h; long w; } holey[2];
	struct { long x; short y; } named;
	struct { struct { int p; } deep; int q; union { int u1; char u2; }; } nest[2];
	struct { int m[2]; struct { char d; } dd[2]; } multi[2][2];
	tdanon td[2];
	struct inner in[2];
	struct { struct inner ni; int k; } withnamed[1];
	struct { struct { short s; } pair[2]; } wrap;
	int z;
};

struct outer fx_outer;

#define M(tag, path) printf("%s %s %zu %zu\n", tag, #path, offsetof(struct outer, path), \
			    sizeof(((struct outer *)0)->path))

int main(void)
{
	M("A", a);
	M("A", arr_anon);
	M("A", arr_anon[0].n);
	M("A", arr_anon[0].c);
	M("A", holey);
	M("A", holey[0].h);
	M("A", holey[0].w);
	M("A", named);
	M("A", named.x);
	M("A", named.y);
	M("A", nest);
	M("A", nest[0].deep);
	M("A", nest[0].deep.p);
	M("A", nest[0].q);
	M("A", nest[0].u1);
	M("A", nest[0].u2);
	M("A", multi);
	M("A", multi[0][0].m);
	M("A", multi[0][0].dd);
	M("A", multi[0][0].dd[0].d);
	M("A", td);
	M("E", td[0].t1);
	M("E", td[0].t2);
	M("A", in);
	M("E", in[0].i1);
	M("E", in[0].i2);
	M("A", withnamed);
	M("A", withnamed[0].ni);
	M("E", withnamed[0].ni.i1);
	M("E", withnamed[0].ni.i2);
	M("A", withnamed[0].k);
	M("A", wrap);
	M("A", wrap.pair);
	M("A", wrap.pair[0].s);
	M("A", z);
	return 0;
}
