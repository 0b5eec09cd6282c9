/* One object file is enough for hitmap: it reads the DWARF of mm.o. */
#include "mm.h"

struct mm_struct init_mm;

int mm_users(const struct mm_struct *mm)
{
	return mm->mm_users.counter;
}
