#!/bin/sh

test_description='the ref transaction (lib/refs.h) in both ref formats

Every ref git rolling writes goes through one transaction API over two
backends, files and reftable, chosen when the repository is opened.
Through test-rolling ref-tx (the API itself, as git update-ref --stdin
takes its lines) and real commands: a deletion keeps its old-value check
in both formats, the format read at open is the one written with even
when the configuration changes afterwards, and which reflogs exist after
the same updates is what git update-ref gives in a twin repository.
(The commands that write refs through it are tested where they are:
init taking back the branch it made by a deletion in t1200, advance and
fetch in both formats in t8040.)
'
. "$(dirname "$0")"/test-lib.sh

# The formats this git makes: files always, reftable from git 2.45.
formats=files
if git init -q --ref-format=reftable probe-reftable 2>/dev/null &&
	test "$(git -C probe-reftable rev-parse --show-ref-format)" = reftable
then
	formats="files reftable"
	test_set_prereq REFTABLE
fi
rm -rf probe-reftable

# rgit DIR ARGS...: git in the repository DIR, a bare one named with
# --git-dir, as Git 3.0's safe.bareRepository=explicit wants.
rgit () {
	rg_dir=$1 &&
	shift &&
	if test -d "$rg_dir/.git"
	then
		git -C "$rg_dir" "$@"
	else
		git --git-dir="$rg_dir" "$@"
	fi
}

# new_repo DIR FORMAT [--bare]: an empty repository whose refs are in FORMAT.
new_repo () {
	if test "$2" = files
	then
		git init -q $(test_ref_format_files) $3 "$1"
	else
		git init -q --ref-format="$2" $3 "$1"
	fi &&
	if test -n "$test_ref_formats_"
	then
		test "$(rgit "$1" rev-parse --show-ref-format)" = "$2"
	fi
}

ZERO_OID=0000000000000000000000000000000000000000

# commits DIR: three commits $c1 $c2 $c3 in DIR, made without a ref, the
# same in every repository.
commits () {
	GIT_AUTHOR_DATE="1700000000 +0000" &&
	GIT_COMMITTER_DATE="1700000000 +0000" &&
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE &&
	tree=$(rgit "$1" hash-object -w -t tree /dev/null) &&
	c1=$(echo one | rgit "$1" commit-tree $tree) &&
	c2=$(echo two | rgit "$1" commit-tree -p $c1 $tree) &&
	c3=$(echo three | rgit "$1" commit-tree -p $c2 $tree)
}

# ref_tx DIR [OPTION...]: test-rolling ref-tx in DIR (a bare one named
# by GIT_DIR), the updates on stdin.
ref_tx () {
	tx_dir=$1 &&
	shift &&
	if test -d "$tx_dir/.git"
	then
		(cd "$tx_dir" && test-rolling ref-tx "$@")
	else
		(cd "$tx_dir" && GIT_DIR=. test-rolling ref-tx "$@")
	fi
}

for format in $formats
do
	prereq=
	test $format = reftable && prereq=REFTABLE

	test_expect_success $prereq "$format: a deletion with the value the ref holds deletes it and its reflog" '
		new_repo del-$format $format &&
		commits del-$format &&
		git -C del-$format update-ref -m made refs/heads/topic $c1 &&
		git -C del-$format reflog exists refs/heads/topic &&
		echo "delete refs/heads/topic $c1" | ref_tx del-$format >out &&
		echo ok >expect &&
		test_cmp expect out &&
		test_must_fail git -C del-$format rev-parse -q --verify refs/heads/topic &&
		test_must_fail git -C del-$format reflog exists refs/heads/topic &&
		test_path_is_missing del-$format/.git/refs/heads/topic &&
		git -C del-$format for-each-ref >refs 2>err &&
		test_must_be_empty err &&
		git -C del-$format fsck --no-progress
	'

	test_expect_success $prereq "$format: a deletion whose old value was lost is refused, the ref kept" '
		git -C del-$format update-ref refs/heads/moved $c2 &&
		echo "delete refs/heads/moved $c1" | test_must_fail ref_tx del-$format >out &&
		echo "error: refs/heads/moved was changed by another process" >expect &&
		test_cmp expect out &&
		test "$(git -C del-$format rev-parse refs/heads/moved)" = $c2 &&
		# and one of several: none of them is deleted
		git -C del-$format update-ref refs/heads/kept $c1 &&
		printf "delete refs/heads/kept %s\ndelete refs/heads/moved %s\n" $c1 $c3 |
		test_must_fail ref_tx del-$format >out &&
		grep "refs/heads/moved was changed by another process" out &&
		test "$(git -C del-$format rev-parse refs/heads/kept)" = $c1 &&
		test "$(git -C del-$format rev-parse refs/heads/moved)" = $c2
	'

	test_expect_success $prereq "$format: a deletion of a ref that is not there is refused" '
		echo "delete refs/heads/never $c1" | test_must_fail ref_tx del-$format >out &&
		echo "error: refs/heads/never was changed by another process" >expect &&
		test_cmp expect out
	'

	test_expect_success $prereq "$format: a deletion without an old value is refused before anything" '
		echo "delete refs/heads/kept $ZERO_OID" | test_must_fail ref_tx del-$format >out &&
		grep "^error: cannot update refs/heads/kept: the null id is no old value" out &&
		test "$(git -C del-$format rev-parse refs/heads/kept)" = $c1
	'

	test_expect_success $prereq "$format: an update whose old value was lost, or a create of a ref that exists, is refused" '
		echo "update refs/heads/moved $c3 $c1" | test_must_fail ref_tx del-$format >out &&
		echo "error: refs/heads/moved was changed by another process" >expect &&
		test_cmp expect out &&
		echo "create refs/heads/moved $c3" | test_must_fail ref_tx del-$format >out &&
		test_cmp expect out &&
		test "$(git -C del-$format rev-parse refs/heads/moved)" = $c2 &&
		printf "update refs/heads/moved %s %s\ndelete refs/heads/kept %s\n" $c3 $c2 $c1 |
		ref_tx del-$format >out &&
		echo ok >expect &&
		test_cmp expect out &&
		test "$(git -C del-$format rev-parse refs/heads/moved)" = $c3 &&
		test_must_fail git -C del-$format rev-parse -q --verify refs/heads/kept
	'
done

test_expect_success 'files: a ref packed-refs holds is not deleted (its packed value would show)' '
	git -C del-files update-ref refs/heads/packed $c1 &&
	git -C del-files pack-refs --all &&
	test_path_is_missing del-files/.git/refs/heads/packed &&
	echo "delete refs/heads/packed $c1" | test_must_fail ref_tx del-files >out &&
	grep "^error: cannot delete refs/heads/packed: packed-refs holds it" out &&
	test "$(git -C del-files rev-parse refs/heads/packed)" = $c1 &&
	test_path_is_missing del-files/.git/refs/heads/packed.lock
'

test_expect_success 'files: the format read at open is written with, whatever the config says later' '
	new_repo open-files files &&
	commits open-files &&
	echo "create refs/heads/new $c1" |
	ref_tx open-files --set-ref-format reftable >out &&
	echo ok >expect &&
	test_cmp expect out &&
	test_path_is_missing open-files/.git/reftable &&
	test_path_is_file open-files/.git/refs/heads/new &&
	git config -f open-files/.git/config --unset extensions.refStorage &&
	test "$(git -C open-files rev-parse refs/heads/new)" = $c1
'

# git reads the config again at each run: the git update-ref the reftable
# backend runs now sees "files" and fails; git rolling must not write a
# loose ref beside the tables meanwhile.
test_expect_success REFTABLE 'reftable: the format read at open is written with, whatever the config says later' '
	new_repo open-rt reftable &&
	commits open-rt &&
	echo "create refs/heads/new $c1" |
	test_must_fail ref_tx open-rt --set-ref-format files >out &&
	grep "^error: cannot update refs/heads/new: git update-ref failed" out &&
	test_path_is_missing open-rt/.git/refs/heads/new &&
	git config -f open-rt/.git/config extensions.refStorage reftable &&
	test_must_fail git -C open-rt rev-parse -q --verify refs/heads/new &&
	echo "create refs/heads/new $c1" | ref_tx open-rt >out &&
	echo ok >expect &&
	test_cmp expect out &&
	test_path_is_missing open-rt/.git/refs/heads/new &&
	test "$(git -C open-rt rev-parse refs/heads/new)" = $c1
'

# prepared_look DIR WHILE AFTER: a transaction moving refs/heads/moved
# from $c3 to $c1 prepared in DIR (test-rolling ref-tx --abort), the
# command WHILE run while it waits, then the transaction freed without a
# commit and AFTER run before the process ends (and its tempfiles with it).
prepared_look () {
	rm -f fifo prepared.out &&
	mkfifo fifo || return 1
	# (on a line of its own: "a && b &" would put a and b in the background too)
	(cd "$1" && exec test-rolling ref-tx --abort <../fifo >../prepared.out) &
	pl_pid=$!
	exec 8>fifo
	printf "update refs/heads/moved %s %s\n\n" $c1 $c3 >&8
	wait_for prepared && eval "$2" &&
	echo >&8 &&
	wait_for aborted && eval "$3"
	pl_ret=$?
	# Its input ends: it goes, whatever happened here.
	exec 8>&-
	wait $pl_pid &&
	test $pl_ret = 0 &&
	echo ok >expect &&
	tail -n 1 prepared.out >actual &&
	test_cmp expect actual
}

# wait_for WORD: until prepared.out has the line WORD (30 seconds at most).
wait_for () {
	wf_n=0
	until grep -q "^$1$" prepared.out 2>/dev/null || test $wf_n -gt 300
	do
		sleep 0.1
		wf_n=$((wf_n + 1))
	done
	grep "^$1$" prepared.out
}

test_expect_success 'files: an aborted transaction leaves the refs, and no lock, as they were' '
	git -C del-files for-each-ref >before &&
	prepared_look del-files "test_path_is_file del-files/.git/refs/heads/moved.lock" \
		"test_path_is_missing del-files/.git/refs/heads/moved.lock &&
		 git -C del-files for-each-ref >after &&
		 test_cmp before after &&
		 ls del-files/.git >files &&
		 ! grep \"^rolling-ref-tx\\.\" files" &&
	test "$(git -C del-files reflog show --format=%H -1 refs/heads/moved)" = $c3 &&
	git -C del-files update-ref refs/heads/moved $c2 $c3
'

test_expect_success REFTABLE 'reftable: an aborted transaction leaves the refs as they were' '
	git -C del-reftable for-each-ref >before &&
	prepared_look del-reftable : \
		"git -C del-reftable for-each-ref >after && test_cmp before after" &&
	git -C del-reftable update-ref refs/heads/moved $c2 $c3
'

# logged DIR: the refs of the updates below whose reflog git finds, and
# what each reflog says (ids and messages, newest first).
REFS="HEAD refs/heads/main refs/heads/a refs/remotes/o/a refs/notes/a refs/tags/a refs/rolling/a refs/heads/gone"
logged () {
	for ref in $REFS
	do
		if rgit "$1" reflog exists $ref
		then
			echo "$ref:" &&
			rgit "$1" reflog show --format="%H %gs" $ref -- || return 1
		fi
	done
}

# reflog_twins NAME FORMAT CONFIG [--bare] [--create-reflog]: the same
# updates (creations, then moves, then a deletion) made by git update-ref
# --stdin in NAME-git and by git rolling's transaction in NAME-rolling,
# with core.logAllRefUpdates CONFIG ("unset": none); the reflogs must be
# the same.
reflog_twins () {
	for twin in git rolling
	do
		new_repo $1-$twin $2 $4 &&
		commits $1-$twin &&
		if test "$3" != unset
		then
			rgit $1-$twin config core.logAllRefUpdates $3
		fi || return 1
	done &&
	for twin in git rolling
	do
		for ref in $REFS
		do
			test $ref = HEAD || echo "create $ref $c1" || return 1
		done >create &&
		for ref in $REFS
		do
			test $ref = HEAD || echo "update $ref $c2 $c1" || return 1
		done >update &&
		echo "delete refs/heads/gone $c2" >delete &&
		for step in create update delete
		do
			if test $twin = git
			then
				rgit $1-git update-ref $5 -m "$step" --stdin <$step
			else
				ref_tx $1-rolling $5 -m "$step" <$step >out &&
				echo ok >expect &&
				test_cmp expect out
			fi || return 1
		done || return 1
	done &&
	logged $1-git >expect &&
	logged $1-rolling >actual &&
	test_cmp expect actual
}

for format in $formats
do
	prereq=
	test $format = reftable && prereq=REFTABLE
	for config in unset true false always
	do
		test_expect_success $prereq "$format, core.logAllRefUpdates $config: the reflogs git update-ref makes" "
			reflog_twins log-$format-$config $format $config &&
			reflog_twins log-$format-$config-bare $format $config --bare
		"
	done

	test_expect_success $prereq "$format: an update that asks for a reflog gets one, as with update-ref --create-reflog" '
		reflog_twins force-$format $format false "" --create-reflog &&
		reflog_twins force-$format-bare $format unset --bare --create-reflog
	'
done

test_done
