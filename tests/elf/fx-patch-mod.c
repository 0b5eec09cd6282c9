/* A kernel module laid out like fx-patch.c: one site of each kind between
 * labels site_KIND / end_KIND in .text, and the tables the module loader
 * reads, each in its own section as a module keeps them (no start and end
 * symbols), whose site fields the assembler leaves to relocations
 * (R_X86_64_PC32; R_X86_64_64 for paravirt's pointer).  A
 * .gnu.linkonce.this_module section makes it a module to hitmap.  The
 * labels are the oracle (the assembler placed them); the tables, read
 * through their relocations, are what hitmap reads.  Built with -c. */
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
	".section .altinstructions, \"a\"\n"
	"	.long site_alt - ., 0\n"	/* instr_offset, repl_offset */
	"	.short 0x1234\n"		/* cpuid */
	"	.byte end_alt - site_alt, 0\n"	/* instrlen, replacementlen */
	".section .parainstructions, \"a\"\n"
	"	.quad site_pv\n"
	"	.byte 1, end_pv - site_pv, 0, 0, 0, 0, 0, 0\n"
	".section .static_call_sites, \"aw\"\n"
	"	.long site_sc - ., 0\n"
	".section __jump_table, \"aw\"\n"
	"	.long site_jl - ., end_jl - .\n"
	"	.quad 0\n"
	".section .retpoline_sites, \"a\"\n"
	"	.long site_rp - .\n"
	".section .return_sites, \"a\"\n"
	"	.long site_rt - .\n"
	".section .gnu.linkonce.this_module, \"aw\"\n"
	"	.zero 64\n"
	".text\n");
