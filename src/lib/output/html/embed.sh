#!/bin/sh
# Turn the page's style sheet and script into C strings (output-html-page.c),
# so the library writes them into every page and the page fetches nothing.
# usage: embed.sh STYLE.css SCRIPT.js >output-html-page.c
set -e
str() {
	echo "const char $1[] ="
	# backslashes and quotes escaped, each line a string ending in \n
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$2"
	echo ";"
}
echo "/* Generated from $(basename "$1") and $(basename "$2") by embed.sh: edit those. */"
echo '#include "output/output-html.h"'
str html_style "$1"
str html_script "$2"
