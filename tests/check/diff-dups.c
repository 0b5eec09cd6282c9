/* Two static structs named priv in two files both called priv.c (built as
 * src/x/priv.c with -DX and src/y/priv.c with -DY; -DV2 is the new build):
 *   x: struct priv { long a, b; }                       16 bytes, unchanged
 *   y: struct priv { int flags; char name[60]; long hits; }
 *      flags 0, name 4..63, hits 64 (line 1): 72 bytes, 2 lines;
 *      V2: name[52], so hits is at 56 (line 0): 64 bytes, 1 line, and hits
 *      newly shares line 0 with flags and name. */
#ifdef X
struct priv {
	long a, b;
};
struct priv x_priv;
#endif
#ifdef Y
struct priv {
	int flags;
#ifdef V2
	char name[52];
#else
	char name[60];
#endif
	long hits;
};
struct priv y_priv;
#endif
#ifdef MAIN
int main(void)
{
	return 0;
}
#endif
