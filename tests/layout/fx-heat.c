/* Fixture for tests/layout/heat.sh: every kind of line a layout prints a
 * member on — plain, inside an anonymous union and an anonymous struct in it,
 * a named struct type (one line, or expanded with -E), a named member of an
 * unnamed struct type (always inline), bitfields, arrays. */
struct pair {
	int x;
	int y;
};

struct heated {
	long a;
	union {
		int u1;
		struct {
			short s1;
			short s2;
		};
	};
	struct pair in;
	struct {
		char c;
		long d;
	} named;
	unsigned f1:3, f2:5;
	char big[70];
	int arr[3];
};

struct heated g_heated;

int main(void)
{
	return (int)g_heated.a;
}
