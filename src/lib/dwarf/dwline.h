/* Internal: DWARF line tables (.debug_line, .debug_line.dwo), versions 2 to 5.
 *
 * hitmap reads line table headers (the file names behind DW_AT_decl_file)
 * and line programs (code locations in reports) itself: both come from
 * files nobody vouches for, and every read here is checked against the end
 * of its section.  A header is parsed once into a struct hm_dwl_unit whose
 * strings point into the sections; the caller keeps the sections alive. */
#ifndef HM_DWLINE_H
#define HM_DWLINE_H
#include <stddef.h>
#include <stdint.h>

/* The sections a line table refers to; any may be NULL. */
struct hm_dwl_secs {
	const unsigned char *line;		/* .debug_line or .debug_line.dwo */
	size_t nline;
	const char *line_str;			/* .debug_line_str (DW_FORM_line_strp) */
	size_t nline_str;
	const char *str;			/* .debug_str(.dwo) (DW_FORM_strp) */
	size_t nstr;
	const unsigned char *str_offsets;	/* .debug_str_offsets(.dwo) (strx) */
	size_t nstr_offsets;
	int big_endian;
};

/* A file of the table: its name and its directory as recorded (dir NULL
 * for the compilation directory of DWARF 2-4, or when the index is bad). */
struct hm_dwl_file {
	const char *name;	/* NULL: no such entry (or an unreadable one) */
	const char *dir;
};

/* One unit's header.  files[] is indexed the way DW_AT_decl_file and
 * DW_LNS_set_file number files: from 1 before DWARF 5 (files[0] empty),
 * from 0 in DWARF 5.  Free with hm_dwl_unit_free(). */
struct hm_dwl_unit {
	unsigned version, offsize;
	unsigned min_inst, max_ops, opcode_base, line_range;
	int line_base, big_endian;
	const unsigned char *std_lens;		/* opcode_base - 1 operand counts */
	const unsigned char *prog, *end;	/* the line program */
	const char *comp_dir;			/* directory 0 of DWARF 5, else NULL */
	struct hm_dwl_file *files;		/* owned */
	size_t nfiles;
};

/* A row of the line number matrix. */
struct hm_dwl_row {
	uint64_t addr;
	uint64_t file;		/* index into files[] (may be out of range) */
	uint64_t seq;		/* where the row's sequence starts in the
				 * program (bytes from prog): hm_dwl_seq_rows() */
	uint32_t line;
	unsigned end_sequence : 1;
};

/* The sections of a linked binary, as they are in the file (an ET_REL
 * file's need relocating: the DWARF loader reads those through libdwarf's
 * view, dwarf-attr.c). */
struct hm_binary;
void hm_dwl_secs_of(const struct hm_binary *bin, struct hm_dwl_secs *s);

/* String idx of the string offsets table whose entries (offsize bytes
 * each) start at byte `base` of s->str_offsets; NULL when either lookup
 * falls outside its section or the string is unterminated. */
const char *hm_dwl_strx(const struct hm_dwl_secs *s, uint64_t base, unsigned offsize,
			uint64_t idx);

/* Parse the header of the unit at byte `off` of s->line.  Returns 0, or
 * -EBADMSG when it is malformed (what is set to a reason), -ENOMEM. */
int hm_dwl_unit_read(const struct hm_dwl_secs *s, uint64_t off, struct hm_dwl_unit *u,
		     const char **what);
void hm_dwl_unit_free(struct hm_dwl_unit *u);

/* The path of file idx, as a compiler would open it: absolute names as they
 * are, others under their directory, relative directories under comp_dir
 * (DW_AT_comp_dir of the unit; may be NULL).  Writes at most len bytes to
 * buf; returns buf, or NULL when there is no such file. */
const char *hm_dwl_path(const struct hm_dwl_unit *u, uint64_t idx, const char *comp_dir,
			char *buf, size_t len);

/* Run the line program, calling row() for every row it emits; a non-zero
 * return from row() stops the run and is returned.  Returns -EBADMSG when
 * the program runs past its end mid-instruction (rows before it were given). */
int hm_dwl_rows(const struct hm_dwl_unit *u, int (*row)(void *arg, const struct hm_dwl_row *r),
		void *arg);

/* The same for the one sequence starting at byte `seq` of the program (a
 * row's seq): the state machine starts afresh at every sequence, so one
 * can be run without the ones before it. */
int hm_dwl_seq_rows(const struct hm_dwl_unit *u, uint64_t seq,
		    int (*row)(void *arg, const struct hm_dwl_row *r), void *arg);

#endif
