/* Internal: the one C declarator speller.  hm_types_declare() and
 * hm_types_declare_split() use it, and so does the pahole-compatible body
 * (output-layout.c) wherever pahole's own spelling loses declarator parts.
 * pahole's spelling itself ("const char  *", "RET (*name)(params)" with RET
 * padded to a column) is not C and stays with that printer. */
#ifndef HM_TYPES_DECLARE_H
#define HM_TYPES_DECLARE_H
#include "hitmap/types.h"
#include "base/util.h"

/* Two styles, on purpose: each is what its output has always printed, and
 * tests compare both byte for byte. */
enum hm_decl_style {
	/* hm_types_declare(): "int * const p", qualifiers in the order C
	 * programmers write them, "struct {...}" / "<anon>" for what has no
	 * name, "int C::*p", "(C::*f)(C *, int)" with the `this` parameter;
	 * an id out of range is -EINVAL, 128 levels -ELOOP. */
	HM_DECL_C,
	/* The layout body, in the conventions of the rest of it: "*const p",
	 * qualifiers in the order DWARF chains them, anonymous tags and
	 * nameless types left blank as pahole leaves them, member pointers
	 * always in parentheses and member functions without `this`; what
	 * cannot be spelled (no such type, nesting past 32) is "void". */
	HM_DECL_BODY,
};

/* Append the specifier of `id` (with its qualifiers) to spec and build its
 * declarator around what decl holds (the name, or nothing for an abstract
 * declarator).  Returns 0 or a negative errno; in HM_DECL_BODY style only
 * the builders' own errors. */
int hm_types_declare_into(const hm_types *t, hm_type_id id, enum hm_decl_style style,
			  hm_sbuf *spec, hm_sbuf *decl);

/* pahole's name of a type that is no declarator operator (the leaves of
 * its __tag__name): "void", a base type's or typedef's name, "struct NAME",
 * "union NAME", "class NAME", "enum NAME" (an anonymous one's name left
 * blank), appended to out: 1; 0 (nothing appended) for any other kind.
 * The layout body and HM_DECL_BODY both spell leaves with it. */
int hmi_types_tag_name(const hm_type *ty, hm_sbuf *out);

#endif
