/* A stand-in kernel for the irq-deferred rule (tests/report/regs-irq.sh): an
 * irq-enable function called before a load, and sti and popf before loads. */
struct rq { long nr; long load; };
__attribute__((noinline)) void pvm_irq_enable(void) { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) long after_call(struct rq *q)
{
	pvm_irq_enable();
	return q->load;
}
__attribute__((noinline)) long after_sti(struct rq *q)
{
	__asm__ volatile("sti" ::: "memory");
	return q->load;
}
__attribute__((noinline)) long after_popf(struct rq *q, unsigned long f)
{
	__asm__ volatile("push %0; popf" :: "r"(f) : "memory", "cc");
	return q->nr;
}
void _start(void) {}
void _text(void) {}
