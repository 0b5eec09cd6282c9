/* Fixture for split BTF (what a kernel module's BTF is): built once as the
 * base and once with -DSPLIT as the "module", whose BTF pahole encodes on top
 * of the base's, so that struct list and struct base_s come from the base. */
struct list {
	struct list *next, *prev;
};

struct base_s {
	int a;
	long b;
	struct list l;
};

struct base_s g_base;

#ifdef SPLIT
struct mod_s {
	struct base_s bs;
	char c;
	struct list *lp;
	unsigned flag:3;
	unsigned more:7;
	struct mod_s *self;
};

struct mod_s g_mod;
#endif

int main(void)
{
	return 0;
}
