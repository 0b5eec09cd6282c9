/* Watch-mode fixture for array paths: run, it prints the offsetof() of each
 * path tests/record/watch-index.sh watches, as the compiler lays them out. */
#include <stddef.h>
#include <stdio.h>

struct cnt { long n; long m; };
struct stats {
	int x;
	struct cnt cnt[4];
	short grid[3][5];
	struct cnt flat[2][2];
};
struct stats g_stats;
long arr[6];

int main(void)
{
	printf("g_stats.cnt[0].n %zu %zu\n", offsetof(struct stats, cnt[0].n),
	       sizeof(g_stats.cnt[0].n));
	printf("g_stats.cnt[2].m %zu %zu\n", offsetof(struct stats, cnt[2].m),
	       sizeof(g_stats.cnt[2].m));
	printf("g_stats.cnt[3] %zu %zu\n", offsetof(struct stats, cnt[3]),
	       sizeof(g_stats.cnt[3]));
	printf("g_stats.grid[2][3] %zu %zu\n", offsetof(struct stats, grid[2][3]),
	       sizeof(g_stats.grid[2][3]));
	printf("g_stats.grid[1] %zu %zu\n", offsetof(struct stats, grid[1]),
	       sizeof(g_stats.grid[1]));
	printf("g_stats.flat[1][0].m %zu %zu\n", offsetof(struct stats, flat[1][0].m),
	       sizeof(g_stats.flat[1][0].m));
	return 0;
}
