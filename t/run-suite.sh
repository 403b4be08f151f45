#!/bin/sh
# run-suite.sh NAME SCRIPT...: run the test scripts under prove, as make
# test, make test-long and make valgrind do, and say how long it took.
#
# The trash directories and the fixture cache (TEST_OUTPUT_DIRECTORY,
# STABLE_TREE_CACHE) go to a directory of this run's own in TEST_ROOT,
# /dev/shm when make does not say otherwise: a tmpfs, as git's own suite
# runs with --root=/dev/shm.  The scripts create and remove files by the
# ten thousand: eight of the longest scripts took 9% less CPU time and
# 10% less wall time there than on ext4 (two rounds, one after the
# other, the kernel's time from 50 s to 42 s).  No test is about the
# file system the trash lives on (the full-disk tests mount their own).
# The directory goes when every script passed, and stays, named, when
# one failed.  t/ is used, as before, when TEST_ROOT is empty or is no
# directory that can take the run: writable, with room (a container's
# 64 MB /dev/shm has not), and running the programs the tests write
# there.
#
# A run that failed ends with the title, body and output of every test
# that failed (t/test-lib.sh keeps them in "trash directory.<script>.failed"
# beside the trash directories), as git's CI prints its failures: prove
# shows them only with -v, and a failure seen once in CI must be
# diagnosed from its log alone.
#
# Environment: PROVE (default prove), PROVE_OPTS, TEST_ROOT.
set -u
name=$1
shift
# A relative TEST_ROOT names a directory from where make runs, not t/.
case ${TEST_ROOT:-} in
''|/*) ;;
*) TEST_ROOT=$PWD/$TEST_ROOT ;;
esac
cd "$(dirname "$0")" || exit 1

# usable_root DIR: DIR can hold this run: a gigabyte free, and a script
# written there runs.  Its directory for this run on stdout.
usable_root () {
	test -d "$1" && test -w "$1" || return 1
	ur_free=$(df -Pk "$1" 2>/dev/null | awk 'NR == 2 { print $4 }')
	test "${ur_free:-0}" -ge 1048576 || return 1
	ur_dir=$(mktemp -d "$1/git-rolling-tests.XXXXXX") || return 1
	# mktemp makes it private; tests run programs as nobody (t7050's
	# Apache) that must reach the trash directories, as they can in t/.
	if chmod 755 "$ur_dir" &&
		printf '#!/bin/sh\nexit 0\n' >"$ur_dir/probe" &&
		chmod +x "$ur_dir/probe" && "$ur_dir/probe" 2>/dev/null
	then
		rm -f "$ur_dir/probe"
		echo "$ur_dir"
	else
		rm -rf "$ur_dir"
		return 1
	fi
}

# Every run generates its fixture trees anew (t/lib-stable-tree.sh): in
# its own directory, or in t/.fixture-cache, emptied first, when the
# trash goes to t/.
root=
if test -n "${TEST_ROOT:-}" && root=$(usable_root "$TEST_ROOT")
then
	TEST_OUTPUT_DIRECTORY=$root
	STABLE_TREE_CACHE=$root/.fixture-cache
	export TEST_OUTPUT_DIRECTORY STABLE_TREE_CACHE
else
	test -z "${TEST_ROOT:-}" ||
	echo "$name: $TEST_ROOT cannot take the trash directories; they go to t/"
	unset TEST_OUTPUT_DIRECTORY STABLE_TREE_CACHE
	rm -rf .fixture-cache
fi

# process_ms: the wall time of a `git version` here and now, in ms, the
# mean of twenty (empty where date has no %N).  A run is some 50,000
# processes, most of its time the kernel's starting and ending them, so
# its wall time follows this.  On the shared virtual machines the suite
# runs on, the CPU time of a git rev-parse (perf stat) went from 3.3 to
# 6.8 ms and back to 3.9 within a day, and make test's time with it.
process_ms () {
	pm_start=$(date +%s%N) &&
	for pm_i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
	do
		git version >/dev/null || return
	done &&
	pm_end=$(date +%s%N) &&
	case $pm_start$pm_end in
	*[!0-9]*) ;;
	*) pm_tenths=$(((pm_end - pm_start) / 2000000)) &&
	   echo "$((pm_tenths / 10)).$((pm_tenths % 10))" ;;
	esac
}

# An interrupted run (^C reaches prove and the scripts too) leaves no
# trash behind in the tmpfs, which holds it in memory until a reboot,
# and exits with 128 and the signal's number, as a shell it killed.
interrupted=
trap 'interrupted=129' HUP
trap 'interrupted=130' INT
trap 'interrupted=143' TERM
# The records of failures in t/ are this run's alone.
test -n "$root" || for script
do
	script=${script##*/}
	rm -f "trash directory.${script%.sh}.failed"
done
before=$(process_ms)
start=$(date +%s)
${PROVE:-prove} ${PROVE_OPTS:-} "$@"
rc=$?
wall=$(($(date +%s) - start))
after=$(process_ms)
if test -n "$before" && test -n "$after"
then
	echo "$name: $wall s of wall time (a git process: $before ms before, $after ms after)"
else
	echo "$name: $wall s of wall time"
fi
# print_failures DIR: the failed tests' records in DIR, each under a
# line that names its script; a long one is cut in its middle, where a
# loop's output is least likely to say why.
print_failures () {
	for pf_file in "$1"/"trash directory."*.failed
	do
		test -f "$pf_file" || continue
		pf_script=${pf_file##*/trash directory.}
		pf_script=${pf_script%.failed}
		pf_lines=$(wc -l <"$pf_file")
		echo "--- $name: what failed in $pf_script ($pf_lines lines)"
		if test "$pf_lines" -le 3000
		then
			cat "$pf_file"
		else
			head -n 1500 "$pf_file"
			echo "[... $((pf_lines - 3000)) lines cut: all of them are in $pf_file]"
			tail -n 1500 "$pf_file"
		fi
	done
}
if test $rc != 0 && test -z "$interrupted"
then
	print_failures "${root:-.}"
fi
if test -n "$root"
then
	if test $rc = 0 || test -n "$interrupted"
	then
		rm -rf "$root"
	else
		echo "$name: the trash directories of the scripts that failed are in $root"
	fi
fi
exit ${interrupted:-$rc}
