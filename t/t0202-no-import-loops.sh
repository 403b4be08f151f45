#!/bin/sh

test_description='no file of lib/ or cli/ uses a file that uses it back

The layers have a direction: the allocation wrappers sit below the usage
printer, the move of a ref below both the move of a branch and the
work-tree transaction.  Two graphs are checked for cycles, of two files
or more:

 - who calls whom: an object needs a symbol (nm -u) that another object
   defines (nm --defined-only);
 - who includes whom: a file of a module (foo.c or foo.h) includes the
   header of another module.
'
. "$(dirname "$0")"/test-lib.sh

# symbol_edges <object>...: "<from> <to>" when <from> leaves undefined a
# symbol that <to> defines.  One nm for each list (nm -A names the
# object on every line).
symbol_edges () {
	nm -A --defined-only -g "$@" |
	awk "NF == 3 { sub(/:[^:]*\$/, \"\", \$1); print \$3, \$1 }" |
	sort >"$TRASH_DIRECTORY/defined" &&
	nm -A -u "$@" |
	awk "{ sub(/:[^:]*\$/, \"\", \$1); print \$NF, \$1 }" |
	sort >"$TRASH_DIRECTORY/undefined" &&
	join "$TRASH_DIRECTORY/undefined" "$TRASH_DIRECTORY/defined" | awk "{ print \$2, \$3 }" | sort -u
}

# include_edges <source>...: "<from> <to>" when a file of module <from>
# (its path without .c or .h) includes the header of module <to>; one
# awk reads them all and folds "dir/../" out of the paths.
include_edges () {
	awk '
	match($0, /^#include "[^"]*\.h"/) {
		header = substr($0, 11, RLENGTH - 13)
		from = FILENAME
		sub(/\.[ch]$/, "", from)
		dir = FILENAME
		sub(/\/[^\/]*$/, "", dir)
		to = dir "/" header
		while (sub(/[^ \/.][^ \/]*\/\.\.\//, "", to))
			;
		print from, to
	}' "$@" | sort -u
}

# cycles: "<from> <to>" edges on stdin; one line per group of nodes that
# all reach each other (a strongly connected component of two or more),
# its members sorted.
cycles () {
	awk '
	$1 != $2 { reach[$1, $2] = 1; node[$1] = 1; node[$2] = 1 }
	END {
		for (k in node)
			for (i in node)
				if ((i, k) in reach)
					for (j in node)
						if ((k, j) in reach)
							reach[i, j] = 1
		for (i in node) {
			if (i in seen)
				continue
			n = 0
			for (j in node)
				if (j == i || (((i, j) in reach) && ((j, i) in reach))) {
					member[++n] = j
					seen[j] = 1
				}
			if (n < 2)
				continue
			for (a = 2; a <= n; a++)
				for (b = a; b > 1 && member[b - 1] > member[b]; b--) {
					t = member[b]; member[b] = member[b - 1]; member[b - 1] = t
				}
			line = member[1]
			for (a = 2; a <= n; a++)
				line = line " " member[a]
			print line
		}
	}' | sort
}

test_expect_success 'the symbol check finds a loop of three objects, and only it' '
	mkdir probe &&
	cat >probe/a.c <<-\EOF &&
	int b(int);
	int a(int x) { return x ? b(x - 1) : 0; }
	EOF
	cat >probe/b.c <<-\EOF &&
	int c(int);
	int b(int x) { return x ? c(x - 1) : 1; }
	EOF
	cat >probe/c.c <<-\EOF &&
	int a(int);
	int c(int x) { return x ? a(x - 1) : 2; }
	EOF
	cat >probe/d.c <<-\EOF &&
	int a(int);
	int e(int);
	int d(int x) { return a(x) + e(x); }
	EOF
	cat >probe/e.c <<-\EOF &&
	int e(int x) { return x; }
	EOF
	for f in a b c d e
	do
		${CC:-cc} -O0 -c -o probe/$f.o probe/$f.c || return 1
	done &&
	symbol_edges probe/*.o >edges &&
	grep "^probe/d.o probe/e.o\$" edges &&
	cycles <edges >actual &&
	echo "probe/a.o probe/b.o probe/c.o" >expect &&
	test_cmp expect actual &&
	symbol_edges probe/d.o probe/e.o probe/a.o probe/b.o | cycles >actual &&
	test_must_be_empty actual
'

test_expect_success 'the include check finds two headers that include each other' '
	mkdir -p inc/lib inc/cli &&
	printf "#include \"low.h\"\n" >inc/lib/high.h &&
	printf "#include \"high.h\"\n#include \"error.h\"\n" >inc/lib/low.c &&
	printf "#include \"../lib/high.h\"\n" >inc/cli/user.c &&
	: >inc/lib/low.h &&
	: >inc/lib/error.h &&
	: >inc/cli/user.h &&
	(cd inc && include_edges lib/*.[ch] cli/*.[ch]) >edges &&
	grep "^cli/user lib/high\$" edges &&
	cycles <edges >actual &&
	echo "lib/high lib/low" >expect &&
	test_cmp expect actual
'

test_expect_success 'the object of every source of lib/ and cli/ is there' '
	(cd "$GIT_ROLLING_BUILD_DIR" && ls lib/*.c cli/*.c) | sed "s/\\.c\$/.o/" >objects &&
	test -s objects &&
	for o in $(cat objects)
	do
		test_path_is_file "$GIT_ROLLING_BUILD_DIR/$o" || return 1
	done
'

test_expect_success 'no two objects of lib/ and cli/ call each other, directly or not' '
	(cd "$GIT_ROLLING_BUILD_DIR" && symbol_edges $(cat "$TRASH_DIRECTORY/objects")) >edges &&
	grep "^cli/usage.o cli/wrapper.o\$" edges &&
	cycles <edges >actual &&
	test_must_be_empty actual
'

test_expect_success 'no two modules of lib/ and cli/ include each other, directly or not' '
	(cd "$GIT_ROLLING_BUILD_DIR" && include_edges lib/*.[ch] cli/*.[ch]) >edges &&
	grep "^cli/usage cli/parse-options\$" edges &&
	cycles <edges >actual &&
	test_must_be_empty actual
'

test_done
