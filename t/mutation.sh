#!/bin/sh
# mutation.sh - do the tests notice a real bug?  Seed one small bug at a
# time (a "mutant": a flipped comparison, a dropped check, an off-by-one)
# into a copy of the sources, build the copy, run the test scripts that
# should catch that bug, and say whether they did.
#
#   t/mutation.sh [MUTANTS-FILE] [NAME...]
#
# MUTANTS-FILE (default t/mutation/mutants.txt) holds one entry per
# mutant, entries separated by blank lines, `#` lines ignored:
#
#   mutant <name>
#   file <source file, from the top of the tree>
#   tests <test script> [<test script>...]
#   needs reftable              (optional)
#   - <text, exactly as in the file, found exactly once>
#   + <the text that replaces it>
#
# A mutant that "needs reftable" seeds a bug only a reftable repository
# reaches, which the tests check only with a git that writes reftable
# (2.45 and later): its scripts run with $MUTATION_REFTABLE_GIT (a
# directory holding such a git) first on PATH, the others with the git
# on PATH, whose old behaviours some mutants need (git 2.39's bisect).
# Without a git that writes reftable it is SKIPPED, never counted as
# survived or killed.
# The text after "- " and "+ " is taken byte for byte (tabs included).
# With NAMEs, only those mutants run.  The working tree is never
# touched: the sources (tracked and untracked, less what .gitignore
# ignores) are copied to a scratch directory ($MUTATION_DIR, else a new
# one under $TMPDIR), built there once, and for each mutant the one file
# is changed, rebuilt incrementally, and put back.  Each script runs
# with -i under prove, the scripts one after the other, stopping at the
# first that fails; a script taking over $MUTATION_TIMEOUT seconds
# (default 900) counts as failing.  Before any mutant, the listed
# scripts run once on the unchanged copy (MUTATION_BASELINE=0 skips
# that): a script failing there would kill every mutant for nothing.
#
# Prints KILLED (with the script that failed), SURVIVED, or INVALID (the
# text is not found exactly once, or the mutant does not build) for
# each, then the kill rate.  A scratch directory made here is removed
# at the end unless a mutant survived or was invalid (its logs stay).  Exits 0 when every valid mutant was killed,
# 1 when one survived, 2 on a usage or setup error.  Everything runs
# under nice -n 10, and only one run at a time (a second run waits for
# nothing: it refuses).

top=$(cd "$(dirname "$0")/.." && pwd -P) || exit 2
list=$top/t/mutation/mutants.txt
case ${1-} in
*/*|*.txt) list=$1; shift ;;
esac
test -f "$list" || { echo "mutation: no mutants file $list" >&2; exit 2; }
timeout_s=${MUTATION_TIMEOUT:-900}
nice_=${MUTATION_NICE:-nice -n 10}

# One run at a time: the lock is on this script itself, nothing is written.
exec 9<"$0"
if ! flock -n 9
then
	echo "mutation: another run of t/mutation.sh is going on; not starting a second" >&2
	exit 2
fi

if test -n "${MUTATION_DIR-}"
then
	scratch=$MUTATION_DIR
	mkdir -p "$scratch" || exit 2
else
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/git-rolling-mutation.XXXXXX") || exit 2
fi
# mktemp makes it private; tests run programs as nobody (t7001, t7050)
# that must reach the copy, as t/run-suite.sh lets them reach its own.
chmod 755 "$scratch" || exit 2
src=$scratch/src
log=$scratch/log
mkdir -p "$log" || exit 2
echo "mutation: working in $scratch"

# --- the mutants, one directory each -----------------------------------

rm -rf "$scratch/mutants" &&
mkdir "$scratch/mutants" &&
awk -v out="$scratch/mutants" '
	function flush() {
		if (name == "")
			return
		if (file == "" || tests == "" || !has_from || !has_to) {
			print "mutation: entry " name " lacks file, tests, - or + line" >"/dev/stderr"
			bad = 1
		}
		dir = sprintf("%s/%03d", out, ++n)
		system("mkdir \"" dir "\"")
		printf "%s\n", name >(dir "/name"); close(dir "/name")
		printf "%s\n", file >(dir "/file"); close(dir "/file")
		printf "%s\n", tests >(dir "/tests"); close(dir "/tests")
		printf "%s", needs >(dir "/needs"); close(dir "/needs")
		printf "%s", from >(dir "/from"); close(dir "/from")
		printf "%s", to >(dir "/to"); close(dir "/to")
		name = file = tests = from = to = needs = ""
		has_from = has_to = 0
	}
	/^#/ { next }
	/^$/ { flush(); next }
	/^mutant / { flush(); name = substr($0, 8); next }
	/^file / { file = substr($0, 6); next }
	/^tests / { tests = substr($0, 7); next }
	/^needs reftable$/ { needs = "reftable"; next }
	/^- / { from = substr($0, 3); has_from = 1; next }
	/^\+ / { to = substr($0, 3); has_to = 1; next }
	/^\+$/ { to = ""; has_to = 1; next }
	{ print "mutation: line " NR ": not understood: " $0 >"/dev/stderr"; bad = 1 }
	END { flush(); exit bad }
' "$list" || exit 2

# selected NAME [WANTED...]: NAME is one of WANTED, or none is wanted.
selected () {
	sel_name=$1
	shift
	test $# = 0 && return 0
	for sel_wanted
	do
		test "$sel_wanted" = "$sel_name" && return 0
	done
	return 1
}

# --- the copy, built once -----------------------------------------------

echo "mutation: copying the sources and building them"
rm -rf "$src" && mkdir "$src" || exit 2
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1
then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard) |
	(cd "$top" && xargs -0 cp --parents -P -t "$src" 2>/dev/null)
	# cp fails on files deleted from the work tree but still in the index
else
	(cd "$top" && tar cf - --exclude='./t/trash directory.*' --exclude=./t/.fixture-cache .) |
	(cd "$src" && tar xf -)
fi
test -f "$src/Makefile" || { echo "mutation: the copy has no Makefile" >&2; exit 2; }
unset GIT_ROLLING_BUILD_DIR
STABLE_TREE_CACHE=$scratch/fixture-cache
export STABLE_TREE_CACHE
build () {
	$nice_ make -C "$src" -j2 all >"$1" 2>&1
}
build "$log/build.out" || {
	echo "mutation: the unchanged sources do not build; see $log/build.out" >&2
	exit 2
}

# run_scripts LOGFILE SCRIPT...: 0 when every script passes, else 1 and
# the failing script's name in $failed.
run_scripts () {
	rs_log=$1
	shift
	: >"$rs_log"
	for rs_script
	do
		if ! test -f "$src/t/$rs_script"
		then
			echo "mutation: no test script t/$rs_script" >&2
			failed="$rs_script (missing)"
			return 1
		fi
		if ! (cd "$src/t" && $nice_ timeout "$timeout_s" prove "./$rs_script" :: -i) \
			>>"$rs_log" 2>&1
		then
			failed=$rs_script
			return 1
		fi
	done
	failed=
	return 0
}

if test "${MUTATION_BASELINE:-1}" != 0
then
	for d in "$scratch"/mutants/*/
	do
		selected "$(cat "$d/name")" "$@" && cat "$d/tests"
	done | tr ' ' '\n' | sed '/^$/d' | sort -u >"$scratch/all-tests"
	echo "mutation: baseline: $(wc -l <"$scratch/all-tests") scripts on the unchanged sources"
	if ! run_scripts "$log/baseline.out" $(cat "$scratch/all-tests")
	then
		echo "mutation: $failed fails without any mutant; see $log/baseline.out" >&2
		exit 2
	fi
fi

# --- one mutant at a time ----------------------------------------------

# apply FILE: replace $FROM by $TO in FILE (read through the environment,
# so that no backslash is interpreted); fails unless found exactly once.
apply () {
	awk '
		BEGIN { from = ENVIRON["FROM"]; to = ENVIRON["TO"] }
		{
			line = $0; out = ""
			while ((at = index(line, from)) > 0) {
				hits++
				out = out substr(line, 1, at - 1) to
				line = substr(line, at + length(from))
			}
			print out line
		}
		END { exit hits != 1 }
	' "$1" >"$1.mutant" && mv "$1.mutant" "$1"
}

# Which git writes reftable repositories: MUTATION_REFTABLE_GIT's, or the one on PATH?
plain_path=$PATH reftable_path=$PATH
test -z "${MUTATION_REFTABLE_GIT-}" || reftable_path=$MUTATION_REFTABLE_GIT:$PATH
if PATH=$reftable_path git init -q --ref-format=reftable "$scratch/reftable-probe" >/dev/null 2>&1
then
	git_writes_reftable=yes
fi
rm -rf "$scratch/reftable-probe"

killed=0 survived=0 invalid=0 skipped=0
for d in "$scratch"/mutants/*/
do
	name=$(cat "$d/name") file=$(cat "$d/file")
	selected "$name" "$@" || continue
	if test "$(cat "$d/needs")" = reftable && test -z "${git_writes_reftable-}"
	then
		echo "SKIPPED  $name: $(git --version) writes no reftable repository (MUTATION_REFTABLE_GIT)"
		skipped=$((skipped + 1))
		continue
	fi
	FROM=$(cat "$d/from") TO=$(cat "$d/to")
	export FROM TO
	if ! test -f "$src/$file" || ! apply "$src/$file"
	then
		echo "INVALID  $name: the text is not found exactly once in $file"
		invalid=$((invalid + 1))
		cp "$top/$file" "$src/$file" 2>/dev/null
		continue
	fi
	if ! build "$log/$name.build"
	then
		echo "INVALID  $name: does not build (see $log/$name.build)"
		invalid=$((invalid + 1))
	else
		test "$(cat "$d/needs")" != reftable || PATH=$reftable_path
		run_scripts "$log/$name.out" $(cat "$d/tests")
		ran=$?
		PATH=$plain_path
		if test $ran = 0
		then
			echo "SURVIVED $name ($file)"
			survived=$((survived + 1))
		else
			echo "KILLED   $name by $failed"
			killed=$((killed + 1))
		fi
	fi
	# Put the file back (an mtime in the future of the objects rebuilds it).
	cp "$top/$file" "$src/$file" && touch "$src/$file"
done

# Leave the copy as it started, built.
build "$log/build-final.out"
total=$((killed + survived))
if test $total = 0
then
	echo "mutation: no valid mutant ran ($invalid invalid)"
	exit 2
fi
echo "mutation: $killed of $total mutants killed ($((100 * killed / total))%), $survived survived, $invalid invalid$(test $skipped = 0 || echo ", $skipped skipped")"
# A scratch directory of our own goes, unless its logs tell of a survivor.
if test -z "${MUTATION_DIR-}" && test $survived = 0 && test $invalid = 0
then
	rm -rf "$scratch"
else
	echo "mutation: logs in $log"
fi
test $survived = 0
