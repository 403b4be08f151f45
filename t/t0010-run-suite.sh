#!/bin/sh

test_description='t/run-suite.sh: where make test puts its trash

make test, test-long and valgrind run prove through t/run-suite.sh,
which gives the run a directory of its own in TEST_ROOT for the trash
directories and the fixture cache, removes it when the run passed or was
interrupted, keeps and names it when a script failed, and leaves them in
t/ when TEST_ROOT cannot take them.  A copy of the script runs here with
a prove that records what it was given, so that the suite'"'"'s own t/ is
never touched.
'
. "$(dirname "$0")"/test-lib.sh

# run-suite.sh works where it lives: a copy in suite/, a prove in bin/
# that writes its environment and arguments to prove.env, checks that
# the directory it was given exists, and exits with $FAKE_PROVE_EXIT
# (after sending its parent, run-suite.sh, FAKE_PROVE_SIGNAL, if set).
test_expect_success 'setup: a copy of run-suite.sh and a prove that records' '
	mkdir suite bin &&
	cp "$TEST_DIRECTORY/run-suite.sh" suite/ &&
	cat >bin/prove <<-\EOF &&
	#!/bin/sh
	{
		echo "args $*"
		echo "output ${TEST_OUTPUT_DIRECTORY-unset}"
		echo "cache ${STABLE_TREE_CACHE-unset}"
	} >"$FAKE_PROVE_LOG"
	if test -n "${TEST_OUTPUT_DIRECTORY:-}"
	then
		test -d "$TEST_OUTPUT_DIRECTORY" || exit 99
		ls -ld "$TEST_OUTPUT_DIRECTORY" | cut -c1-10 >>"$FAKE_PROVE_LOG"
	fi
	test -z "${FAKE_PROVE_SIGNAL:-}" || kill -s "$FAKE_PROVE_SIGNAL" $PPID
	exit ${FAKE_PROVE_EXIT:-0}
	EOF
	chmod +x bin/prove &&
	FAKE_PROVE_LOG=$TRASH_DIRECTORY/prove.env &&
	# PROVE, like make'"'"'s variable, is split into words: this prove is
	# found on PATH instead, as the default "prove" is.
	PATH=$TRASH_DIRECTORY/bin:$PATH &&
	export FAKE_PROVE_LOG PATH &&
	unset PROVE &&
	free=$(df -Pk . | awk "NR == 2 { print \$4 }") &&
	if test "$free" -ge 1048576
	then
		test_set_prereq ROOM
	fi
'

# field NAME: the value prove.env recorded for NAME.
field () {
	sed -n "s/^$1 //p" prove.env
}

test_expect_success ROOM 'a usable root: a directory of the run'"'"'s own, removed after a pass' '
	mkdir root suite/.fixture-cache &&
	: >suite/.fixture-cache/entry &&
	TEST_ROOT=$TRASH_DIRECTORY/root PROVE_OPTS=-j2 \
		suite/run-suite.sh "make test" ./t1.sh ./t2.sh >out &&
	# the cache in t/ is not this run'"'"'s: left as it was
	test_path_is_file suite/.fixture-cache/entry &&
	test "$(field args)" = "-j2 ./t1.sh ./t2.sh" &&
	output=$(field output) &&
	case $output in
	"$TRASH_DIRECTORY/root/git-rolling-tests."??????) ;;
	*) echo "trash directories in $output" && false ;;
	esac &&
	test "$(field cache)" = "$output/.fixture-cache" &&
	# nobody (t7050'"'"'s Apache) must reach the trash directories
	echo drwxr-xr-x >expect &&
	tail -n 1 prove.env >actual &&
	test_cmp expect actual &&
	test_path_is_missing "$output" &&
	grep "^make test: [0-9]* s of wall time" out
'

test_expect_success ROOM 'a relative root counts from where make runs, not from t/' '
	mkdir -p top/rel &&
	(
		cd top &&
		TEST_ROOT=rel "$TRASH_DIRECTORY/suite/run-suite.sh" "make test" ./t1.sh >../out
	) &&
	case $(field output) in
	"$TRASH_DIRECTORY/top/rel/git-rolling-tests."??????) ;;
	*) echo "trash directories in $(field output)" && false ;;
	esac
'

test_expect_success ROOM 'a failed run keeps its directory and names it' '
	rm -rf root && mkdir root &&
	test_expect_code 1 env TEST_ROOT="$TRASH_DIRECTORY/root" FAKE_PROVE_EXIT=1 \
		suite/run-suite.sh "make test" ./t1.sh >out &&
	output=$(field output) &&
	test_path_is_dir "$output" &&
	grep "^make test: the trash directories of the scripts that failed are in $output$" out &&
	rm -rf "$output"
'

test_expect_success ROOM 'an interrupted run leaves no directory and exits as the signal would' '
	rm -rf root && mkdir root &&
	test_expect_code 143 env TEST_ROOT="$TRASH_DIRECTORY/root" FAKE_PROVE_SIGNAL=TERM \
		FAKE_PROVE_EXIT=1 suite/run-suite.sh "make test" ./t1.sh >out &&
	test_path_is_missing "$(field output)" &&
	ls root >left &&
	test_must_be_empty left
'

test_expect_success 'a root that cannot take the run: said, and the trash stays in t/' '
	TEST_ROOT=$TRASH_DIRECTORY/no-such-dir suite/run-suite.sh "make test" ./t1.sh >out &&
	grep "^make test: $TRASH_DIRECTORY/no-such-dir cannot take the trash directories; they go to t/$" out &&
	test "$(field output)" = unset &&
	test "$(field cache)" = unset &&
	test_path_is_missing no-such-dir
'

test_expect_success 'TEST_ROOT empty: the trash in t/, without a word about it' '
	mkdir -p suite/.fixture-cache &&
	: >suite/.fixture-cache/entry &&
	TEST_ROOT= TEST_OUTPUT_DIRECTORY=/elsewhere STABLE_TREE_CACHE=/elsewhere \
		suite/run-suite.sh "make test" ./t1.sh >out &&
	test "$(field output)" = unset &&
	test "$(field cache)" = unset &&
	# the run generates its fixtures anew in t/.fixture-cache
	test_path_is_missing suite/.fixture-cache &&
	! grep "cannot take" out
'

# A run of real scripts under the real prove: the suite's own test-lib,
# one script that passes and one whose second test fails, as make test
# runs them (prove without -v).
test_expect_success ROOM 'a failed test says why at the end of the run: its body and output' '
	real_prove=$(PATH=${PATH#$TRASH_DIRECTORY/bin:} && command -v prove) &&
	mkdir real &&
	for script in t1-pass t2-fail
	do
		cat >real/$script.sh <<-EOF || return 1
		#!/bin/sh
		test_description="a script run by run-suite.sh"
		TEST_NO_BUILD=1
		TEST_DIRECTORY=$TEST_DIRECTORY
		. "\$TEST_DIRECTORY"/test-lib.sh
		test_expect_success "first" "echo first said this"
		EOF
		chmod +x real/$script.sh || return 1
	done &&
	cat >>real/t2-fail.sh <<-\EOF &&
	test_expect_success "second, which fails" "
		echo the output of the failing test &&
		echo and its stderr >&2 &&
		test 1 = 2
	"
	test_expect_success "third" "echo third said this"
	test_done
	EOF
	echo test_done >>real/t1-pass.sh &&
	cp suite/run-suite.sh real/ &&
	rm -rf root && mkdir root &&
	test_expect_code 1 env PROVE="$real_prove" TEST_ROOT="$TRASH_DIRECTORY/root" \
		real/run-suite.sh "make test" ./t1-pass.sh ./t2-fail.sh >out 2>&1 &&
	sed -n "/^--- make test: what failed in t2-fail /,\$p" out >failures &&
	grep "^not ok 2 - second, which fails$" failures &&
	grep "^#	echo the output of the failing test &&$" failures &&
	grep "^# the output of the failing test$" failures &&
	grep "^# and its stderr$" failures &&
	! grep "first said\|third said\|t1-pass" failures &&
	output=$(sed -n "s/^make test: the trash directories of the scripts that failed are in //p" out) &&
	rm -rf "$output"
'

test_expect_success ROOM 'a run that passed prints no failures' '
	rm -rf root && mkdir root &&
	env PROVE="$real_prove" TEST_ROOT="$TRASH_DIRECTORY/root" \
		real/run-suite.sh "make test" ./t1-pass.sh >out 2>&1 &&
	! grep "what failed" out
'

test_done
