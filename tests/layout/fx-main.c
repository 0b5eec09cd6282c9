/* The fixtures of tests/layout carry no code: this is the program they are
 * linked into, so that their global variables (and so their types) are kept. */
int main(void)
{
	return 0;
}
