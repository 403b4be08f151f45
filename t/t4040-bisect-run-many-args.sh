#!/bin/sh

test_description='bisect-helper run passes any number of arguments on

git bisect run has no limit on the command it runs; neither may
bisect-helper run.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

test_expect_success 'setup: a rolling branch from week 11 to week 30' '
	rolling_history tree 11 30 &&
	write_culprit_test culprit-test
'

test_expect_success 'a command with 200 arguments runs with all of them' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.0.7..v6.0.8 | tail -n 1) &&
	git rolling bisect-helper start v6.0.11 v6.0.4 >start.out &&
	# The wrapper counts its arguments and checks that none was lost.
	cat >../count-args <<-\EOF &&
	#!/bin/sh
	test $# = 202 || { echo "got $# arguments" >&2; exit 128; }
	test "$2" = a1 && test "${201}" = a200 || exit 128
	exec "${0%/*}/culprit-test" "${202}"
	EOF
	chmod +x ../count-args &&
	set -- "$TRASH_DIRECTORY/count-args" --marker &&
	i=1 &&
	while test $i -le 200
	do
		set -- "$@" a$i &&
		i=$((i + 1)) || return 1
	done &&
	git rolling bisect-helper run "$@" "$culprit" >run.out 2>run.err &&
	grep "^first bad commit: $(git rev-parse "$culprit") " run.out &&
	git bisect reset >/dev/null 2>&1
'

test_done
