#!/bin/sh

test_description='tables damaged byte by byte: an error, never a crash

A hostile repository can hold any bytes in its tables.  git 2.55.0'"'"'s
reftable library, which git rolling reads them with, trusted the sizes
and offsets a table declares: one to three random bytes changed in a
table of 42 refs made about one read in twenty-five die of SIGSEGV,
SIGBUS or SIGABRT (a double free), git'"'"'s own for-each-ref included.
The copy in lib/vendor/reftable carries the checks of
lib/vendor/reftable-patches/.  Here every damaged copy must be read
whole and as git lists it, or refused with an error: test-rolling refs
exits 0 or 1, git rolling exits 0 or 128 with a "fatal:" line, and
neither dies of a signal.  The damage is random but the same every run
(GIT_ROLLING_TEST_SEED picks other damage; the default seed is fixed so
that a failure is the same failure on every machine).
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-reftable.sh

seed=${GIT_ROLLING_TEST_SEED:-8049}
cases=${GIT_ROLLING_TEST_DAMAGE_CASES:-150}

test_expect_success REFTABLE 'setup: one table of 42 refs, annotated tags among them' '
	reftable_repo repo &&
	for i in $(seq 1 38)
	do
		git -C repo tag -a -m "tag $i" "v$i" || return 1
	done &&
	git -C repo branch side &&
	git -C repo pack-refs --all &&
	test_line_count = 1 repo/.git/reftable/tables.list &&
	test "$(git -C repo for-each-ref | wc -l)" -eq 42
'

# Which peeled value git lists: git 2.55 prints a tag's %(*objectname)
# from the value the table stores, git 2.47 and older peel the tag
# object themselves.  A table whose stored peel of v1 names the tree
# instead of the commit tells them apart; only a git that lists what
# the table stores can be compared with our reader on that column.
test_expect_success REFTABLE 'setup: does git list the peeled value the table stores?' '
	rm -rf lie && cp -R repo lie &&
	tag=$(git -C repo rev-parse refs/tags/v1) &&
	commit=$(git -C repo rev-parse "refs/tags/v1^{commit}") &&
	tree=$(git -C repo rev-parse "HEAD^{tree}") &&
	python3 - "$(newest_table lie/.git/reftable)" $tag $commit $tree <<-\EOF &&
	import sys
	path, tag, commit, tree = sys.argv[1:5]
	data = open(path, "rb").read()
	value = bytes.fromhex(tag) + bytes.fromhex(commit)
	assert data.count(value) == 1, "v1 and its peel, once in the table"
	data = data.replace(value, bytes.fromhex(tag) + bytes.fromhex(tree))
	open(path, "wb").write(data)
	EOF
	(cd lie && test-rolling refs) >ours &&
	grep "^$tag $tree refs/tags/v1 \$" ours &&
	listed=$(git -C lie for-each-ref --format="%(*objectname)" refs/tags/v1) &&
	case "$listed" in
	$tree) test_set_prereq STORED_PEEL && echo "git lists the stored peel" ;;
	$commit) ;;
	*) false ;;
	esac
'

# comparable FILE: a listing as both sides can be compared, sorted by
# name (git 2.47 sorts what it lists, git 2.55 streams it in the
# table's order, which damage can break) and without the peeled value
# where git does not list the stored one.
comparable () {
	if test_have_prereq STORED_PEEL
	then
		cat "$1"
	else
		cut -d" " -f1,3- "$1"
	fi | LC_ALL=C sort
}

# damage SEED N TABLE: N damaged copies of TABLE, damaged/<case>.ref,
# one to three bytes of each changed at random, and the list of cases,
# "<case> <offset>:<byte>...", on stdout: from python3's Mersenne
# Twister seeded with SEED, so the same on every machine.
damage () {
	mkdir -p damaged &&
	python3 - "$@" <<-\EOF
	import random, sys
	rng = random.Random(int(sys.argv[1]))
	table = open(sys.argv[3], "rb").read()
	for case in range(int(sys.argv[2])):
	    data = bytearray(table)
	    pokes = []
	    for _ in range(rng.randint(1, 3)):
	        off, byte = rng.randrange(len(data)), rng.randrange(256)
	        data[off] = byte
	        pokes.append("%d:%d" % (off, byte))
	    open("damaged/%d.ref" % case, "wb").write(data)
	    print(case, " ".join(pokes))
	EOF
}

# in_copy CASE: copy/ is repo/ with the newest table damaged as CASE.
in_copy () {
	cp "damaged/$1.ref" "$(newest_table copy/.git/reftable)"
}

test_expect_success REFTABLE 'every damaged table is read as git lists it, or refused' '
	echo "seed $seed, $cases cases" &&
	damage "$seed" "$cases" "$(newest_table repo/.git/reftable)" >cases &&
	rm -rf copy && cp -R repo copy &&
	>unexpected &&
	while read case pokes
	do
		in_copy "$case" &&
		rc=0 &&
		(cd copy && test-rolling refs) >ours 2>ours.err || rc=$? &&
		case $rc in
		0)
			# Read whole: where git reads the same table, the same refs.
			if (cd copy && git for-each-ref \
				--format="%(objectname) %(*objectname) %(refname) %(symref)") \
				>theirs 2>/dev/null &&
			   comparable theirs >theirs.cmp &&
			   comparable ours >ours.cmp &&
			   ! test_cmp theirs.cmp ours.cmp >/dev/null
			then
				echo "case $case ($pokes): our listing differs from git'"'"'s" >>unexpected
			fi ;;
		1)
			grep -q "^error: cannot read the reftable stack .*copy/.git/reftable" ours ours.err ||
				echo "case $case ($pokes): refused without naming the stack" >>unexpected ;;
		*)
			echo "case $case ($pokes): test-rolling refs exit $rc" >>unexpected ;;
		esac || return 1
	done <cases &&
	test_must_be_empty unexpected
'

test_expect_success REFTABLE 'git rolling fails with a fatal message, never of a signal' '
	head -n 40 cases >some &&
	>unexpected &&
	while read case pokes
	do
		in_copy "$case" &&
		rc=0 &&
		git -C copy rolling status >out 2>err || rc=$? &&
		case $rc in
		0) ;;
		128)
			grep -q "^fatal: " err ||
				echo "case $case ($pokes): exit 128 without a fatal line" >>unexpected ;;
		*)
			echo "case $case ($pokes): git rolling status exit $rc" >>unexpected ;;
		esac || return 1
	done <some &&
	test_must_be_empty unexpected
'

test_done
