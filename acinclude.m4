dnl HM_SONAME(DEFINE, LIB, FALLBACK, DESCRIPTION, [DIR])
dnl Define DEFINE to the soname of libLIB.so: the one in DIR when given,
dnl else the one the compiler's linker would find; FALLBACK when neither
dnl can be read (the library is then opened by that name).
AC_DEFUN([HM_SONAME], [
  AC_CHECK_TOOL([OBJDUMP], [objdump], [false])
  AC_MSG_CHECKING([the soname of lib$2])
  hm_so=
  AS_IF([test -n "$5" && test -e "$5/lib$2.so"], [hm_so=$5/lib$2.so],
    [hm_so=$($CC -print-file-name=lib$2.so 2>/dev/null)])
  hm_soname=
  AS_IF([test -n "$hm_so" && test -e "$hm_so"],
    [hm_soname=$(LC_ALL=C $OBJDUMP -p "$hm_so" 2>/dev/null | sed -n 's/^ *SONAME *//p')])
  AS_IF([test -z "$hm_soname"], [hm_soname=$3])
  AC_MSG_RESULT([$hm_soname])
  AC_DEFINE_UNQUOTED([$1], ["$hm_soname"], [$4])
])
