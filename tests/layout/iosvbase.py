#!/usr/bin/env python3
"""Generate a C++ program that checks hitmap's text for libstdc++'s iostream
classes (basic_ios and every class that has it as a virtual base) against the compiler: sizeof,
the offset of every base printed (static_cast from a complete object), and
the padding after the virtual basic_ios (sizeof less its end).  The program
prints NAME<TAB>BLOCK<TAB>1 or 0 for each printed block (a name can print
twice: the old and the new string ABI).

usage: iosvbase.py HITMAP-TEXT >check.cc"""
import re
import sys

IOS = re.compile(r'class (?:std::)?(basic_(ios|(io|i|o)?stream|[io]?fstream|[io]?stringstream)<.*>|[io]?strstream)$')
LINE = re.compile(r'/\* +(\d+|\?) +(\d+) \*/$')


def blocks(path):
    out, cur, buf = {}, None, []
    for line in open(path, errors='replace'):
        if cur is None and re.match(r'^(struct|class) ', line):
            cur, buf = line.split(' {')[0].split(' : ')[0], [line]
        elif cur is not None:
            buf.append(line)
            if line.startswith('}'):
                out.setdefault(cur, []).append(''.join(buf))
                cur = None
    return out


def spell(name):
    """hitmap prints a member's type without its namespace (pahole's
    way; the block's own name is qualified): std:: them back."""
    name = re.sub(r'^(class|struct) ', '', name)
    return re.sub(r'(?<![\w:])(basic_\w+|char_traits|allocator|ios_base|i?o?strstream)\b',
                  r'std::\1', name)


def main():
    bl = blocks(sys.argv[1])
    names = sorted(k for k in bl if IOS.match(k))
    print('#include <fstream>\n#include <sstream>\n#include <strstream>\n#include <cstdio>')
    print('int main() {')
    for k in names:
        t = spell(k)
        arg = '("")' if t == 'std::istrstream' else \
            '(nullptr)' if re.match(r'std::basic_(ios|istream|ostream|iostream)<', t) else ''
        for bi, b in enumerate(bl[k]):
            checks = ['sizeof(%s) == %s' % (t, re.search(r'/\* size: (\d+)', b).group(1))]
            pad = re.search(r'/\* padding: (\d+)', b)
            for line in b.split('\n'):
                a = re.match(r'\s*/\* (?:class|struct) (.*?) +<ancestor>; \*/', line)
                r = LINE.search(line.strip())
                if a and r:
                    checks.append('0 /* offset ? */' if r.group(1) == '?' else
                                  '(const char *)static_cast<const %s *>(&o) - (const char *)&o == %s'
                                  % (spell(a.group(1)), r.group(1)))
            if not re.match(r'class (std::)?basic_ios<', k):
                ios = re.findall(r'/\* class (basic_ios<.*?>) +<ancestor>; \*/ +/\* +(\d+) ', b)
                if len(ios) != 1:
                    checks.append('0 /* basic_ios not placed once */')
                else:
                    it = spell(ios[0][0])
                    checks.append('sizeof(%s) - ((const char *)static_cast<const %s *>(&o) - '
                                  '(const char *)&o + sizeof(%s)) == %s'
                                  % (t, it, it, pad.group(1) if pad else '0'))
            print('{ static %s o%s; printf("%%s\\t%d\\t%%d\\n", "%s", %s); }'
                  % (t, arg, bi, k, ' && '.join('(%s)' % c for c in checks)))
    print('}')


main()
