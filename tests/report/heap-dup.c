/* A struct token different from heap.c's: two definitions of one name, so
 * a pointer to "struct token" does not say which, and its samples stay
 * unattributed (ambiguous-type). */
struct token {
	int other;
	long value;
};

__attribute__((noinline)) void dup_touch(struct token *t)
{
	t->value = 1;
}
