#!/bin/sh

test_description='lib/ never exits, never writes to the terminal, never changes the environment

The library returns errors to its caller; only cli/ and builtin/ print
or exit.  The object files of lib/ must not reference the calls that do
(exit, abort, printf, puts, perror, stdout, stderr, isatty, ...): nm -u
lists what each object needs from elsewhere.  Nor does it change the
process environment to pass something to a child (setenv, unsetenv,
putenv): each git run gets its environment (run-command.h).  Nor does
anything flip the process-wide owner validation of libgit2 around a
call: it is set off once, at setup, and git-rolling makes git'"'"'s check.

Nor does any code format a string with a raw asprintf() or vasprintf(),
whose result is undefined when they fail: it goes through the one helper,
lib/strbuf.h (rolling_strfmt(), rolling_vstrfmt(), rolling_path_join(),
strbuf_addf()), or cli/wrapper.h'"'"'s xasprintf() over it.
'
. "$(dirname "$0")"/test-lib.sh

FORBIDDEN='exit|_exit|_Exit|abort|printf|__printf_chk|vprintf|__vprintf_chk|puts|putchar|perror|isatty|stdout|stderr|setenv|unsetenv|putenv|clearenv'

# forbidden_refs <object>...: "<object>: <symbol>" for each forbidden
# symbol an object leaves undefined.
forbidden_refs () {
	nm -u -A "$@" >undefined &&
	awk "{ print \$1, \$NF }" undefined | grep -E " ($FORBIDDEN)\$" | sort -u
}

# The objects that may call asprintf() or vasprintf() themselves, one a
# line: the helper, and lib/error.c, which stands below it (its comment
# says why).
ASPRINTF_ALLOWED="
lib/strbuf.o
lib/error.o
"

# asprintf_calls <object>...: "<object>: <symbol>" for each call of
# asprintf() or vasprintf() (the _chk ones under _FORTIFY_SOURCE) that an
# object not on the list makes.
asprintf_calls () {
	nm -u -A "$@" >"$TRASH_DIRECTORY/undefined" &&
	awk -v allowed="$ASPRINTF_ALLOWED" '
	BEGIN { n = split(allowed, a); for (i = 1; i <= n; i++) ok[a[i] ":"] = 1 }
	$NF ~ /^(__)?v?asprintf(_chk)?$/ && !($1 in ok) { print $1, $NF }
	' "$TRASH_DIRECTORY/undefined" | sort -u
}

test_expect_success 'the check sees a printf, an exit and stdout in an object' '
	cat >probe.c <<-\EOF &&
	#include <stdio.h>
	#include <stdlib.h>
	int probe(int x)
	{
		printf("x is %d\n", x);
		fflush(stdout);
		if (x < 0)
			exit(1);
		return x;
	}
	EOF
	${CC:-cc} -O0 -c -o probe.o probe.c &&
	forbidden_refs probe.o >actual &&
	cat >expect <<-\EOF &&
	probe.o: exit
	probe.o: printf
	probe.o: stdout
	EOF
	test_cmp expect actual
'

test_expect_success 'the object of every source of lib/ is there' '
	ls "$GIT_ROLLING_BUILD_DIR"/lib/*.c | sed "s/\\.c\$/.o/" >objects &&
	test -s objects &&
	for o in $(cat objects)
	do
		test_path_is_file "$o" || return 1
	done
'

test_expect_success 'no object of lib/ exits, aborts, writes to the terminal or sets the environment' '
	forbidden_refs $(cat objects) >actual &&
	test_must_be_empty actual
'

test_expect_success 'libgit2'"'"'s owner validation is set in one place, and never read back' '
	(
		cd "$GIT_ROLLING_BUILD_DIR" &&
		grep -rn --include="*.[ch]" -e GIT_OPT_SET_OWNER_VALIDATION \
			-e GIT_OPT_GET_OWNER_VALIDATION lib cli builtin t/helper git-rolling.c
	) >uses &&
	sed "s/:[0-9]*:.*//" uses >files &&
	echo lib/setup.c >expect &&
	test_cmp expect files &&
	grep GIT_OPT_SET_OWNER_VALIDATION uses
'

test_expect_success 'the asprintf check sees asprintf and vasprintf in an object' '
	cat >probe-fmt.c <<-\EOF &&
	#define _GNU_SOURCE
	#include <stdarg.h>
	#include <stdio.h>
	char *probe_fmt(int x)
	{
		char *s;
		return asprintf(&s, "%d", x) < 0 ? NULL : s;
	}
	char *probe_vfmt(const char *fmt, va_list ap)
	{
		char *s;
		return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
	}
	EOF
	${CC:-cc} -O2 -c -o probe-fmt.o probe-fmt.c &&
	cp probe-fmt.o probe-allowed.o &&
	(
		ASPRINTF_ALLOWED=probe-allowed.o &&
		asprintf_calls probe-fmt.o probe-allowed.o
	) >actual &&
	cat >expect <<-\EOF &&
	probe-fmt.o: asprintf
	probe-fmt.o: vasprintf
	EOF
	test_cmp expect actual
'

test_expect_success 'no object but those allowed calls asprintf() or vasprintf()' '
	(
		cd "$GIT_ROLLING_BUILD_DIR" &&
		ls lib/*.c cli/*.c builtin/*.c t/helper/test-*.c git-rolling.c |
		sed "s/\\.c\$/.o/" >"$TRASH_DIRECTORY/fmt-objects" &&
		for o in $(cat "$TRASH_DIRECTORY/fmt-objects")
		do
			test_path_is_file "$o" || return 1
		done &&
		asprintf_calls $(cat "$TRASH_DIRECTORY/fmt-objects")
	) >actual &&
	test_must_be_empty actual
'

test_done
