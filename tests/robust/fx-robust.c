/* Fixture of the error-contract tests: a struct with anonymous members (no
 * name to compare against the group markers), two typedefs the tests chain
 * into a cycle by patching one DW_AT_type, and a global so the types are
 * emitted. */
typedef int cyc_a;
typedef cyc_a cyc_b;

struct holder {
	cyc_b x;
	long y;
	union {
		int i;
		float f;
	};
	struct {
		short a, b;
	};
};

struct holder g_holder;

int main(void)
{
	return g_holder.x;
}
