/* A program laid out like a kernel's patched text: one instruction or
 * range of each kind of patch site, every site between labels site_KIND /
 * end_KIND, and the tables the kernel reads at boot, between its linker
 * symbols, in Linux 6.1's x86-64 layouts.  The labels are the oracle (the
 * assembler placed them); the tables are what hitmap reads.  Built
 * -no-pie: the paravirt table holds absolute pointers. */
struct pair {
	long a, b;
};

long fx_read(struct pair *p);
long fx_read(struct pair *p)
{
	return p->b;
}

__asm__(".text\n"
	".globl fx_patched\n"
	".type fx_patched, @function\n"
	"fx_patched:\n"
	"site_alt: movq 8(%rdi), %rax\n"	/* 4 bytes */
	"	nop\n"
	"end_alt:  movq 8(%rdi), %rax\n"	/* outside every site */
	"site_pv:  movq 8(%rdi), %rdx\n"
	"	xchg %ax, %ax\n"		/* 4 + 2 = 6 bytes */
	"end_pv:   movq 8(%rdi), %rcx\n"
	"site_sc:  call fx_read\n"
	"end_sc:   movq 8(%rdi), %rsi\n"
	"site_jl:  .byte 0xe9; .long 0\n"	/* jmp .+5, a 5-byte jump label */
	"end_jl:   movq 8(%rdi), %r8\n"
	"site_rp:  call fx_read\n"
	"end_rp:   movq 8(%rdi), %r9\n"
	"site_rt:  ret\n"
	"end_rt:   int3\n"
	".size fx_patched, . - fx_patched\n"
	".section .rodata.patch, \"a\"\n"
	".balign 8\n"
	".globl __alt_instructions, __alt_instructions_end\n"
	"__alt_instructions:\n"
	"	.long site_alt - ., 0\n"	/* instr_offset, repl_offset */
	"	.short 0x1234\n"		/* cpuid */
	"	.byte end_alt - site_alt, 0\n"	/* instrlen, replacementlen */
	"__alt_instructions_end:\n"
	".balign 8\n"
	".globl __parainstructions, __parainstructions_end\n"
	"__parainstructions:\n"
	"	.quad site_pv\n"
	"	.byte 1, end_pv - site_pv, 0, 0, 0, 0, 0, 0\n"
	"__parainstructions_end:\n"
	".globl __start_static_call_sites, __stop_static_call_sites\n"
	"__start_static_call_sites:\n"
	"	.long site_sc - ., 0\n"
	"__stop_static_call_sites:\n"
	".globl __start___jump_table, __stop___jump_table\n"
	"__start___jump_table:\n"
	"	.long site_jl - ., end_jl - .\n"
	"	.quad 0\n"
	"__stop___jump_table:\n"
	".globl __retpoline_sites, __retpoline_sites_end\n"
	"__retpoline_sites:\n"
	"	.long site_rp - .\n"
	"__retpoline_sites_end:\n"
	".globl __return_sites, __return_sites_end\n"
	"__return_sites:\n"
	"	.long site_rt - .\n"
	"__return_sites_end:\n"
	".text\n");

long fx_patched(struct pair *p);

int main(void)
{
	struct pair p = { 1, 2 };

	return (int)fx_read(&p) - 2;
}
