# test-lib.sh - a small TAP test library for git-rolling, in the style of
# git's own t/test-lib.sh.  It must work under dash as well as bash.
#
# A test script looks like this (run it from t/, or anywhere if it
# sources us through "$(dirname "$0")"):
#
#	#!/bin/sh
#	test_description='what this script covers'
#	. ./test-lib.sh
#	test_expect_success 'title' '
#		some command &&
#		another command
#	'
#	test_done
#
# Options: -v/--verbose  show the output of test bodies
#          -d/--debug    keep the trash directory
#          -i/--immediate  stop at the first failing test
#          -x            trace test bodies with "set -x"
#          --no-chain-lint  do not check for broken &&-chains
#
# Set before sourcing: TEST_NO_BUILD=1 (do not require a built
# git-rolling), TEST_DIRECTORY (where this file lives; default: the
# script's directory), TEST_OUTPUT_DIRECTORY (where trash directories go).

# TAP lines and fatal errors must reach the harness even while a test
# body's output is redirected, so keep the original stdout and stderr.
exec 5>&1 6>&2

if test -z "$TEST_DIRECTORY"
then
	TEST_DIRECTORY=$(dirname "$0")
fi
TEST_DIRECTORY=$(cd "$TEST_DIRECTORY" && pwd -P) || exit 1
TEST_OUTPUT_DIRECTORY=$(cd "${TEST_OUTPUT_DIRECTORY:-$TEST_DIRECTORY}" && pwd -P) ||
	exit 1
test_build_dir_=${GIT_ROLLING_BUILD_DIR:-$TEST_DIRECTORY/..}

this_test=${0##*/}
this_test=${this_test%.sh}

verbose= debug= immediate= trace= chain_lint=t
for test_opt_
do
	case $test_opt_ in
	-v|--verbose) verbose=t ;;
	-d|--debug) debug=t ;;
	-i|--immediate) immediate=t ;;
	-x) trace=t ;;
	--no-chain-lint) chain_lint= ;;
	-h|--help)
		printf '%s\n' "$test_description"
		exit 0 ;;
	*)
		printf 'error: unknown test option: %s\n' "$test_opt_" >&2
		exit 1 ;;
	esac
done

# An exit that does not come from test_done (a stray "exit" in a test
# body, a typo in the script) must not look like a clean run.
test_exit_ok_=
test_on_exit_ () {
	test_code_=$?
	test -n "$test_exit_ok_" && exit "$test_code_"
	printf 'FATAL: unexpected exit with code %s\n' "$test_code_" >&6
	exit 1
}
trap 'test_on_exit_' EXIT

test_bail_out_ () {
	printf 'Bail out! %s\n' "$*" >&5
	test_exit_ok_=t
	exit 1
}

BUG () {
	printf 'error: bug in the test script: %s\n' "$*" >&6
	test_exit_ok_=t
	exit 1
}

say () {
	printf '%s\n' "$*"
}

# --- a hermetic environment ---------------------------------------------

# Nothing from the user's git setup may leak into the tests.  Tracing
# variables are kept because they only help debugging, the switches of
# `make valgrind` and `make test-long`, the seed and size of t8047's
# random operations (to replay a run), and GIT_DEFAULT_REF_FORMAT, the
# ref format of the repositories git init and git clone make (2.45 and
# later): a run with it set tests that format, whatever git's default.
for test_var_ in $(env | sed -n 's/^\(GIT_[A-Za-z0-9_]*\)=.*/\1/p')
do
	case $test_var_ in
	GIT_TRACE*|GIT_ROLLING_TEST_VALGRIND|GIT_ROLLING_TEST_LONG) ;;
	GIT_ROLLING_TEST_SEED|GIT_ROLLING_TEST_OPS) ;;
	GIT_DEFAULT_REF_FORMAT) ;;
	*) unset "$test_var_" ;;
	esac
done
unset CDPATH VISUAL EMAIL LANGUAGE XDG_CONFIG_HOME XDG_CACHE_HOME

TRASH_DIRECTORY="$TEST_OUTPUT_DIRECTORY/trash directory.$this_test"
test_log_="$TRASH_DIRECTORY.log"	# outside the work tree, on purpose
# Each failing test's title, body and output, kept for the end of the
# run (t/run-suite.sh prints them): the log above holds the latest
# test's output only, and prove shows a script's stdout only with -v.
test_failures_="$TRASH_DIRECTORY.failed"
GIT_ROLLING_BUILD_DIR=$(cd "$test_build_dir_" && pwd -P) || exit 1
HOME=$TRASH_DIRECTORY
PATH=$GIT_ROLLING_BUILD_DIR:$GIT_ROLLING_BUILD_DIR/t/helper:$PATH
# The race seam (t/helper/seam.c): LD_PRELOAD="$TEST_SEAM" together with
# GIT_ROLLING_TEST_BEFORE_UPDATE=<command>.  Under ASan it is preloaded
# ahead of the sanitizer's runtime, which must then not object.
TEST_SEAM=$GIT_ROLLING_BUILD_DIR/t/helper/seam.so
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export TEST_SEAM ASAN_OPTIONS
# Is the build under test made with AddressSanitizer (make sanitize)?
# The flags of a build from this tree are in its BUILD-FLAGS; ldd, which
# loads every library again, is asked only of a build without them.
if test -f "$GIT_ROLLING_BUILD_DIR/BUILD-FLAGS"
then
	grep -q -e "-fsanitize=[a-z,]*address" "$GIT_ROLLING_BUILD_DIR/BUILD-FLAGS"
else
	ldd "$GIT_ROLLING_BUILD_DIR/git-rolling-init" 2>/dev/null | grep -q libasan
fi && test_build_asan_=t
# libgit2 1.5 leaks in every regex match, which opening a repository of
# format 1 makes (t/lsan-suppressions); 1.6.1 fixed it.
if test -n "$test_build_asan_" &&
	ldd "$GIT_ROLLING_BUILD_DIR/git-rolling-init" 2>/dev/null | grep -q "libgit2\.so\.1\.[0-5] "
then
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$GIT_ROLLING_BUILD_DIR/t/lsan-suppressions:print_suppressions=0
	ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=0
	export LSAN_OPTIONS ASAN_OPTIONS
fi
# `make valgrind`: every git rolling command runs under memcheck.
test -z "$GIT_ROLLING_TEST_VALGRIND" || PATH=$GIT_ROLLING_BUILD_DIR/t/valgrind:$PATH
LC_ALL=C
LANG=C
TZ=UTC
EDITOR=:
PAGER=cat
GIT_PAGER=cat
GIT_MERGE_AUTOEDIT=no
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=$HOME/.gitconfig
# Repository discovery must never climb out of the trash directory into
# the git-rolling checkout itself.
GIT_CEILING_DIRECTORIES=$TEST_OUTPUT_DIRECTORY
export HOME PATH LC_ALL LANG TZ EDITOR PAGER GIT_PAGER GIT_MERGE_AUTOEDIT \
	GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_CEILING_DIRECTORIES \
	GIT_ROLLING_BUILD_DIR

test_require_build () {
	test -x "$GIT_ROLLING_BUILD_DIR/git-rolling" ||
	test_bail_out_ "git-rolling not built (run make)"
}
test "$TEST_NO_BUILD" = 1 || test_require_build

rm -rf "$TRASH_DIRECTORY" "$test_log_" "$test_failures_" ||
	test_bail_out_ "cannot remove $TRASH_DIRECTORY"
# git commit, merge, fetch and am start "git maintenance run --auto"
# after their work, and receive-pack "git gc --auto": a process of about
# 10 ms each that finds nothing to do in repositories this small, some
# 400 a run.  git rolling starts none itself (its fetch passes
# --no-auto-maintenance), so nothing under test depends on them.
mkdir -p "$TRASH_DIRECTORY" &&
cat >"$HOME/.gitconfig" <<\EOF &&
[user]
	name = A U Thor
	email = author@example.com
[init]
	defaultBranch = main
[commit]
	gpgsign = false
[tag]
	gpgsign = false
[advice]
	detachedHead = false
[maintenance]
	auto = false
[receive]
	autogc = false
EOF
git init -q -b main "$TRASH_DIRECTORY" &&
echo /.gitconfig >>"$TRASH_DIRECTORY/.git/info/exclude" &&
cd -P "$TRASH_DIRECTORY" ||
	test_bail_out_ "cannot set up $TRASH_DIRECTORY"
TRASH_DIRECTORY=$(pwd -P)

# --- ref formats --------------------------------------------------------

# git 2.45 keeps a repository's refs in "files" (loose files under refs/,
# packed-refs, logs/) or in "reftable"; Git 3.0 makes reftable
# repositories by default, GIT_DEFAULT_REF_FORMAT chooses (kept above).
# An older git knows files only and answers no question about formats
# (rev-parse prints the option it does not know back).  Does this one?
case $(git rev-parse --show-ref-format 2>/dev/null) in
files|reftable) test_ref_formats_=t ;;
*) test_ref_formats_= ;;
esac

# test_ref_format [DIR]: the ref format of the repository whose work tree
# is DIR (default: the current directory's), as git names it.
test_ref_format () {
	if test -n "$test_ref_formats_"
	then
		git -C "${1:-.}" rev-parse --show-ref-format
	else
		echo files
	fi
}

# test_ref_format_files: the option of git init and git clone that keeps
# the new repository's refs in files, for a test about that backend's
# files (git init -q $(test_ref_format_files) DIR): --ref-format=files
# where git knows ref formats, nothing where files is all there is.
test_ref_format_files () {
	test -z "$test_ref_formats_" || echo --ref-format=files
}

# test_write_refs [DIR]: make the refs of the "<refname> <object>" lines
# of standard input exist, whatever they held, in the repository whose
# work tree is DIR (default: the current directory's): one git
# update-ref --stdin transaction writes them all, in whatever format the
# repository keeps its refs, as git's own tests write refs.
test_write_refs () {
	sed "s/^/update /" | git -C "${1:-.}" update-ref --stdin
}

# test_have_prereq REFFILES: the repositories git makes here keep their
# refs in files, for the tests about that format's own files (a reflog
# file half written, a ref's lock); the same command in reftable is
# t8040's.  Set below, with the other prerequisites.

# test_ref_lock_file DIR REF: the lock file git's writers of REF take in
# the repository whose work tree is DIR, for the tests of a lock another
# process holds: REF's own (refs/heads/x.lock) in files, the table
# stack's (reftable/tables.list.lock), which every writer takes, in
# reftable.
test_ref_lock_file () {
	test_rl_common_=$(git -C "$1" rev-parse --path-format=absolute --git-common-dir) &&
	case $(test_ref_format "$1") in
	files) echo "$test_rl_common_/$2.lock" ;;
	reftable) echo "$test_rl_common_/reftable/tables.list.lock" ;;
	*) BUG "test_ref_lock_file: a ref format test-lib does not know" ;;
	esac
}

# --- prerequisites ------------------------------------------------------

test_prereqs_=
test_set_prereq () {
	test_prereqs_="$test_prereqs_ $1"
}

# test_have_prereq A,!B,...: true iff A is set and B is not.  The first
# missing one is left in $test_missing_prereq_ for the skip message.
test_have_prereq () {
	test_save_ifs_=$IFS
	IFS=,
	set -- $*
	IFS=$test_save_ifs_
	for test_p_
	do
		case " $test_prereqs_ " in
		*" ${test_p_#!} "*) test_set_= ;;
		*) test_set_=no ;;
		esac
		case $test_p_ in
		!*) test "$test_set_" = no ;;
		*) test "$test_set_" != no ;;
		esac || {
			test_missing_prereq_=$test_p_
			return 1
		}
	done
	return 0
}

test "$(test_ref_format "$TRASH_DIRECTORY")" = files && test_set_prereq REFFILES
command -v python3 >/dev/null 2>&1 && test_set_prereq PYTHON3

# test_python3 ARGS...: python3 ARGS..., for tests with the prerequisite
# PYTHON3.  The python3 on PATH may be a launcher, not the interpreter:
# pyenv's shim is a bash script that runs a dozen processes to choose a
# version, 0.32 CPU-seconds a call here against 0.06 s for the
# interpreter it then starts.  That interpreter is asked for once per
# script (a first call in a subshell asks again) and run directly.
test_python3 () {
	if test -z "$test_python3_"
	then
		test_python3_=$(python3 -c "import sys; print(sys.executable)") &&
		test -n "$test_python3_" ||
		test_python3_=python3
	fi
	"$test_python3_" "$@"
}
command -v perl >/dev/null 2>&1 && test_set_prereq PERL
# script(1), util-linux's, runs a command on a terminal of its own
command -v script >/dev/null 2>&1 && test_set_prereq SCRIPT
command -v jq >/dev/null 2>&1 && test_set_prereq JQ
# `make test-long`: the exhaustive replays (every week of a time line)
# run as well as the ones `make test` runs.
test -z "$GIT_ROLLING_TEST_LONG" || test_set_prereq EXPENSIVE

# The loops that kill a command at each point of its run (each file it
# writes, each lock it takes), then check what the next run makes of
# it, take every point in `make test-long` and every other one in `make
# test`: a point costs two runs and the checks after them, a third of a
# CPU-second.  TEST_POINT_STEP is the distance from one point to the
# next, TEST_POINTS names them in the tests' titles.
if test_have_prereq EXPENSIVE
then
	TEST_POINT_STEP=1 TEST_POINTS=each
else
	TEST_POINT_STEP=2 TEST_POINTS="every other"
fi

# test_memcheck's runs under memcheck: in `make test-long`, where
# valgrind is installed.  Each costs a CPU-second or more, which `make
# test` does not spend (`make valgrind` runs every command under memcheck
# anyway).  memcheck cannot run programs built with AddressSanitizer
# (make sanitize).
if test_have_prereq EXPENSIVE && test -z "$test_build_asan_" &&
	command -v valgrind >/dev/null 2>&1
then
	test_set_prereq VALGRIND
fi

# The suite runs under memcheck (make valgrind): valgrind keeps files
# of its own in $TMPDIR, so a test that makes TMPDIR unusable cannot run.
test -z "$GIT_ROLLING_TEST_VALGRIND" || test_set_prereq UNDER_VALGRIND

# test_memcheck <command> <args>: run git rolling <command> under
# valgrind's memcheck where the prerequisite VALGRIND holds (exit 126 on
# a memory error), else as it is; for failure paths whose memory errors
# a plain run may not show.  git-rolling-<command> runs under memcheck
# directly: through the dispatcher, each check paid two valgrind
# start-ups (about half a CPU-second more), the dispatcher's own check
# is test_memcheck_dispatcher.
test_memcheck () {
	if test_have_prereq VALGRIND
	then
		test_memcheck_cmd_=$1 &&
		shift &&
		"$GIT_ROLLING_BUILD_DIR/t/valgrind/memcheck" \
			"$GIT_ROLLING_BUILD_DIR/git-rolling-$test_memcheck_cmd_" "$@"
	else
		git rolling "$@"
	fi
}

# test_memcheck_dispatcher <git-rolling args>: test_memcheck through the
# dispatcher (git-rolling), which is checked under memcheck as well.
test_memcheck_dispatcher () {
	if test_have_prereq VALGRIND
	then
		"$GIT_ROLLING_BUILD_DIR/t/valgrind/git-rolling" "$@"
	else
		git rolling "$@"
	fi
}

# test_memcheck_leaks <git-rolling args>: test_memcheck, and a block of
# memory definitely lost is an error as well (exit 126); for failure
# paths whose frees depend on the libgit2 release.
test_memcheck_leaks () {
	(
		GIT_ROLLING_TEST_LEAKS=1 &&
		export GIT_ROLLING_TEST_LEAKS &&
		test_memcheck "$@"
	)
}

# --- running tests ------------------------------------------------------

test_count_=0 test_success_=0 test_failure_=0 test_fixed_=0 test_broken_=0

# Append cleanup code for the current test; it runs after the body even
# when the body fails, and a failing cleanup fails the test.
test_when_finished () {
	test_cleanup_="{ $*
	} && test_status_ \"\$test_eval_ret_\"; test_eval_ret_=\$?; $test_cleanup_"
}

# Run code in the current shell (so variables persist between tests),
# with stdin closed and output hidden unless --verbose.
test_eval_inner_ () {
	test -z "$trace" || set -x
	eval "$1"
	test_eval_inner_ret_=$?
	{ set +x; } 2>/dev/null
	return $test_eval_inner_ret_
}
test_eval_ () {
	if test -n "$verbose"
	then
		test_eval_inner_ "$1" </dev/null
	else
		test_eval_inner_ "$1" </dev/null >>"$test_log_" 2>&1
	fi
}

# test_status_ N: a command whose exit status is N, run by the shell
# itself: "(exit N)" is a subshell, a process each time.
test_status_ () {
	return "$1"
}

# A body whose &&-chain is intact returns 117 without running anything
# when prefixed with "test_status_ 117 &&"; anything else means a command
# would have its status ignored.  Run in a subshell so that the commands
# after a break cannot change our variables; that subshell is the one
# process the check costs.
test_chain_ok_ () {
	(eval "test_status_ 117 && $1
exit \$?") </dev/null >>"$test_log_" 2>&1
	test $? = 117
}

test_run_ () {
	: >"$test_log_"
	test_cleanup_=:
	if test -n "$chain_lint" && ! test_chain_ok_ "$1"
	then
		echo 'error: bug in the test script: broken &&-chain (or syntax error)' \
			>>"$test_log_"
		return 1
	fi
	test_eval_ "$1"
	test_eval_ret_=$?
	if test -z "$immediate" || test $test_eval_ret_ = 0
	then
		test_eval_ "$test_cleanup_"
	fi
	cd "$TRASH_DIRECTORY" || BUG "trash directory vanished"
	return $test_eval_ret_
}

# test_diagnose_ TAP-LINE BODY: print the body and the hidden output as
# TAP diagnostics, and append them, after the TAP line, to
# $test_failures_.
test_diagnose_ () {
	{
		printf '%s\n' "$2" | sed 's/^/#	/' &&
		if test -z "$verbose" && test -s "$test_log_"
		then
			echo '# output:'
			sed 's/^/# /' "$test_log_"
		fi
	} >"$test_failures_.this" &&
	cat "$test_failures_.this" &&
	{
		printf '%s\n' "$1" &&
		cat "$test_failures_.this"
	} >>"$test_failures_"
	rm -f "$test_failures_.this"
}

# test_start_ PREREQ TITLE KIND: count the test; false if it is skipped.
test_start_ () {
	test_count_=$((test_count_ + 1))
	if test -n "$1" && ! test_have_prereq "$1"
	then
		printf 'ok %d # skip %s (missing %s)\n' "$test_count_" "$2" \
			"$test_missing_prereq_"
		return 1
	fi
	if test -n "$verbose"
	then
		printf 'expecting %s of %s.%d %s:\n' "$3" "$this_test" "$test_count_" "$2"
	fi
}

test_expect_success () {
	test_prereq_=
	if test $# = 3
	then
		test_prereq_=$1
		shift
	fi
	test $# = 2 || BUG "not 2 or 3 parameters to test_expect_success"
	test_start_ "$test_prereq_" "$1" success || return 0
	if test_run_ "$2"
	then
		test_success_=$((test_success_ + 1))
		printf 'ok %d - %s\n' "$test_count_" "$1"
	else
		test_failure_=$((test_failure_ + 1))
		test_tap_line_=$(printf 'not ok %d - %s' "$test_count_" "$1")
		printf '%s\n' "$test_tap_line_"
		test_diagnose_ "$test_tap_line_" "$2"
		if test -n "$immediate"
		then
			printf '# stopping at the first failure (--immediate)\n'
			printf '1..%d\n' "$test_count_"
			test_exit_ok_=t
			exit 1
		fi
	fi
}

# A known breakage: failing is expected and reported as TAP TODO.
test_expect_failure () {
	test_prereq_=
	if test $# = 3
	then
		test_prereq_=$1
		shift
	fi
	test $# = 2 || BUG "not 2 or 3 parameters to test_expect_failure"
	test_start_ "$test_prereq_" "$1" failure || return 0
	if test_run_ "$2"
	then
		test_fixed_=$((test_fixed_ + 1))
		printf 'ok %d - %s # TODO known breakage vanished\n' "$test_count_" "$1"
	else
		test_broken_=$((test_broken_ + 1))
		printf 'not ok %d - %s # TODO known breakage\n' "$test_count_" "$1"
	fi
}

test_remove_trash_ () {
	test -n "$debug$verbose" && return 0
	cd "$TEST_OUTPUT_DIRECTORY" &&
	rm -rf "$TRASH_DIRECTORY" "$test_log_" "$test_failures_"
}

test_done () {
	test_exit_ok_=t
	if test -n "$skip_all" && test $test_count_ = 0
	then
		printf '1..0 # SKIP %s\n' "$skip_all"
		test_remove_trash_
		exit 0
	fi
	test $test_fixed_ = 0 ||
		printf '# %d known breakage(s) vanished\n' $test_fixed_
	test $test_broken_ = 0 ||
		printf '# still have %d known breakage(s)\n' $test_broken_
	if test $test_failure_ != 0
	then
		printf '# failed %d among %d test(s)\n' $test_failure_ $test_count_
		printf '1..%d\n' $test_count_
		exit 1
	fi
	printf '# passed all %d test(s)\n' $test_count_
	printf '1..%d\n' $test_count_
	test_remove_trash_
	exit 0
}

# --- helpers for test bodies --------------------------------------------

# test_kill_group_command: a GIT_ROLLING_TEST_BEFORE_UPDATE command that
# kills its whole process group with kill -9 (a session of its own, as
# setsid makes it: a power cut), writing the group's id down first for
# test_wait_group_gone.  kill -9 0 kills every process of the group at
# once, but the shell waits only for the one it started, the git wrapper:
# its child git-rolling-<cmd> may still be exiting, its flocks held (a
# quarantine's, a journal's owner file), when the wrapper is reaped, and
# the next run would take it for a run still going.
test_kill_group_command () {
	printf '%s' 'read -r s </proc/$$/stat && set -- ${s##*) } && echo $3 >' \
		"'$TRASH_DIRECTORY/killed.pgrp'" ' && kill -9 0'
}

# test_wait_group_gone: return once no process of the group that
# test_kill_group_command's command killed is left (a zombie holds
# nothing); at once when none was killed.  Fails after 30 s.
test_wait_group_gone () {
	test -f "$TRASH_DIRECTORY/killed.pgrp" || return 0
	twg_pgrp=$(cat "$TRASH_DIRECTORY/killed.pgrp") &&
	rm -f "$TRASH_DIRECTORY/killed.pgrp" &&
	twg_tries=0 &&
	while test_group_alive_ "$twg_pgrp"
	do
		twg_tries=$((twg_tries + 1)) &&
		if test $twg_tries -ge 300
		then
			echo >&2 "test_wait_group_gone: process group $twg_pgrp still alive after 30 s"
			return 1
		fi &&
		sleep 0.1 || return 1
	done
}

# test_group_alive_ PGRP: is a process of the group left, not a zombie?
test_group_alive_ () {
	tga_pgrp=$1
	for tga_stat in /proc/[0-9]*/stat
	do
		read -r tga_line <"$tga_stat" 2>/dev/null || continue
		# after the command name, in parentheses: state, ppid, pgrp
		set -- ${tga_line##*) }
		test "$1" != Z && test "$3" = "$tga_pgrp" && return 0
	done
	return 1
}

# Succeed iff the command fails in a controlled way: not by a signal,
# and not because it could not be run at all.
test_must_fail () {
	"$@"
	test_code_=$?
	if test $test_code_ = 0
	then
		echo >&2 "test_must_fail: command succeeded: $*"
		return 1
	elif test $test_code_ -gt 129 && test $test_code_ -le 192
	then
		echo >&2 "test_must_fail: died by signal $((test_code_ - 128)): $*"
		return 1
	elif test $test_code_ = 127
	then
		echo >&2 "test_must_fail: command not found: $*"
		return 1
	elif test $test_code_ = 126
	then
		echo >&2 "test_must_fail: cannot execute: $*"
		return 1
	fi
	return 0
}

test_expect_code () {
	test_want_=$1
	shift
	"$@"
	test_code_=$?
	test "$test_code_" = "$test_want_" && return 0
	echo >&2 "test_expect_code: command exited with $test_code_, we wanted $test_want_: $*"
	return 1
}

test_cmp () {
	test $# = 2 || BUG "test_cmp needs 2 arguments"
	diff -u "$1" "$2"
}

test_path_is_file () {
	test -f "$1" && return 0
	echo "File $1 does not exist"
	return 1
}

test_path_is_dir () {
	test -d "$1" && return 0
	echo "Directory $1 does not exist"
	return 1
}

test_path_is_missing () {
	test -e "$1" || test -L "$1" || return 0
	echo "Path $1 exists but should not:"
	ls -ld "$1"
	return 1
}

test_must_be_empty () {
	test $# = 1 || BUG "test_must_be_empty needs 1 argument"
	test_path_is_file "$1" || return 1
	test -s "$1" || return 0
	echo "'$1' is not empty, it contains:"
	cat "$1"
	return 1
}

# test_line_count OP N FILE, e.g. test_line_count -gt 3 out
test_line_count () {
	test $# = 3 || BUG "test_line_count needs 3 arguments"
	test_path_is_file "$3" || return 1
	test_lines_=$(($(wc -l <"$3")))
	test "$test_lines_" "$1" "$2" && return 0
	echo "test_line_count: line count for $3 !$1 $2 (it is $test_lines_):"
	cat "$3"
	return 1
}

# Deterministic, increasing dates for the commits a test makes itself.
test_tick () {
	if test -z "${test_tick+set}"
	then
		test_tick=1112911993
	else
		test_tick=$((test_tick + 60))
	fi
	GIT_COMMITTER_DATE="$test_tick -0700"
	GIT_AUTHOR_DATE="$test_tick -0700"
	export GIT_COMMITTER_DATE GIT_AUTHOR_DATE
}

# test_commit [-C DIR] [--no-tag] [--annotate] MESSAGE [FILE [CONTENTS [TAG]]]
# Write CONTENTS (default MESSAGE) to FILE (default MESSAGE.t), commit
# it with the next test_tick date and tag it TAG (default MESSAGE).
test_commit () {
	test_c_dir_=. test_c_notag_= test_c_annotate_=
	while test $# != 0
	do
		case $1 in
		-C) test_c_dir_=$2; shift ;;
		--no-tag) test_c_notag_=t ;;
		--annotate) test_c_annotate_=t ;;
		-*) BUG "test_commit: unknown option $1" ;;
		*) break ;;
		esac
		shift
	done
	test $# -ge 1 || BUG "test_commit needs a message"
	test_c_file_=${2:-$1.t}
	printf '%s\n' "${3:-$1}" >"$test_c_dir_/$test_c_file_" &&
	git -C "$test_c_dir_" add -- "$test_c_file_" &&
	test_tick &&
	git -C "$test_c_dir_" commit -q -m "$1" || return 1
	test -z "$test_c_notag_" || return 0
	if test -n "$test_c_annotate_"
	then
		git -C "$test_c_dir_" tag -a -m "$1" "${4:-$1}"
	else
		git -C "$test_c_dir_" tag "${4:-$1}"
	fi
}
