#!/bin/sh

test_description='git rolling fetch on a full disk: all its refs move, or none

The consumer repository lives on a small tmpfs that the test fills to
leave 0, 1, 2, ... pages free, so that the disk runs out at every stage
of a fetch in turn: the objects, the quarantine, the ref locks, the
reflog copies, the renames.  After every failure the tracking ref, the
verified ref, the release tags and their reflogs are exactly as they
were, no lock is left, git fsck is content, and the message names the
real cause; after a success all of them moved, with a reflog line each.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh
. "$TEST_DIRECTORY"/lib-small-fs.sh

test_have_prereq SMALL_FS || echo "# the tests on a small file system are skipped: $small_fs_why"

BRANCH=linux-rolling-stable
TRACKING=refs/remotes/origin/$BRANCH
VERIFIED=refs/rolling/verified/origin/$BRANCH

# moved_with_logs REPO OLD-SNAPSHOT: every ref the fetch moves is at
# $new, and each of their reflogs is the old one and one more line that
# ends at the ref's value.
moved_with_logs () {
	test "$(git -C "$1" rev-parse $TRACKING)" = $new &&
	test "$(git -C "$1" rev-parse $VERIFIED)" = $new &&
	git -C pristine for-each-ref --format="%(refname)" refs/tags >tags-before &&
	git -C "$1" for-each-ref --format="%(refname)" refs/tags >tags-after &&
	comm -13 tags-before tags-after >tags-new &&
	test_line_count -gt 0 tags-new &&
	for ref in $TRACKING $VERIFIED $(cat tags-new)
	do
		log=$1/.git/logs/$ref &&
		old=pristine/.git/logs/$ref &&
		if test -f "$old"
		then
			n=$(wc -l <"$old") &&
			head -n $n "$log" | cmp -s - "$old" &&
			test $(wc -l <"$log") = $((n + 1))
		else
			test $(wc -l <"$log") = 1
		fi &&
		test "$(tail -n 1 "$log" | cut -d" " -f2)" = "$(git -C "$1" rev-parse $ref)" ||
		{ echo "reflog of $ref disagrees" && return 1; }
	done
}

test_expect_success 'setup: a consumer that fetched, and a week more on the server' '
	setup_upstream &&
	publish 12 &&
	git init -q pristine &&
	git -C pristine remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C pristine rolling init -q --follow origin/$BRANCH &&
	git -C pristine rolling fetch -q origin &&
	old=$(git -C pristine rev-parse $VERIFIED) &&
	publish 13 &&
	new=$(git -C server.git rev-parse $BRANCH) &&
	test $old != $new &&
	refs_and_logs pristine >before &&
	echo $old >old && echo $new >new
'

# fetch_leaving UNITS: a fresh copy of the consumer on the small file
# system, filled to leave UNITS pages or blocks, fetches; its exit
# status and stderr are in status and err.
fetch_leaving () {
	rm -rf "$SMALL/consumer" &&
	small_fs_unfill &&
	cp -a pristine "$SMALL/consumer" &&
	small_fs_leave $(($1 * small_fs_page)) &&
	free=$(small_fs_free) &&
	{ git -C "$SMALL/consumer" rolling fetch -q origin 2>err; echo $? >status; } &&
	small_fs_unfill
}

# What a failed fetch says names the stage it failed at.
stage_of () {
	if grep -q "cannot update .*: cannot write .*/logs/.*\.lock" err
	then
		echo "reflog copy"
	elif grep -q "cannot update $TRACKING: cannot write .*$TRACKING.lock" err ||
	   grep -q "cannot update $VERIFIED: cannot write .*$VERIFIED.lock" err
	then
		echo "ref lock"
	elif grep -q "cannot update refs/tags/.*: cannot write .*refs/tags/.*\.lock" err
	then
		echo "tag ref lock"
	elif grep -q "cannot update .*: cannot create .*\.lock" err ||
	     grep -q "cannot lock ref" err
	then
		echo "lock creation"
	elif grep -q "cannot create directory" err
	then
		echo "ref directory"
	elif grep -q "cannot keep" err
	then
		echo "keeping the old file"
	elif grep -q "cannot rename" err
	then
		echo "rename"
	elif grep -q "cannot list the refs of" err
	then
		echo "the server's ref list (git ls-remote's output)"
	elif grep -q "quarantine\|rolling-incoming" err
	then
		echo "quarantine"
	else
		echo "objects"
	fi
}

# enospc_loop KIND: leave 0, 1, 2, ... units free until the fetch
# succeeds; every outcome, checked, goes to outcomes-KIND.  While the
# objects do not fit, four units at a time: the first stage past them
# steps back to take every unit from there on.
enospc_loop () {
	old=$(cat old) && new=$(cat new) &&
	: >outcomes-$1 &&
	units=0 stride=1 &&
	while :
	do
		fetch_leaving $units || return 1
		status=$(cat status) &&
		if test $status != 128 && test $stride = 4
		then
			units=$((units - 3)) stride=0 &&
			continue
		fi &&
		if test $status = 0
		then
			moved_with_logs "$SMALL/consumer" &&
			no_leftovers "$SMALL/consumer" &&
			echo "$1, $free bytes free: fetch succeeded; both refs and the new tags moved, a reflog line each" >>outcomes-$1 &&
			break
		fi &&
		test $status = 128 &&
		grep "No space left on device" err &&
		if grep "^fatal: cannot update" err
		then
			grep "nothing was updated$" err
		fi &&
		! grep "these could not be put back" err &&
		refs_and_logs "$SMALL/consumer" >after &&
		test_cmp before after &&
		no_leftovers "$SMALL/consumer" &&
		git -C "$SMALL/consumer" fsck --no-progress &&
		stage=$(stage_of) &&
		echo "$1, $free bytes free: $stage failed; refs, tags and reflogs as before" >>outcomes-$1 &&
		if test "$stage" = objects && test $stride = 1
		then
			stride=4
		elif test "$stage" != objects && test $stride = 4
		then
			units=$((units - 4)) stride=0
		fi &&
		units=$((units + (stride ? stride : 1))) &&
		test $units -lt 400 || return 1
	done &&
	cat outcomes-$1
}

test_expect_success SMALL_FS 'tmpfs: a full disk at every stage; the refs and reflogs agree after each' '
	small_fs_mount tmpfs 1m &&
	test_when_finished small_fs_umount &&
	enospc_loop tmpfs &&
	grep "objects failed" outcomes-tmpfs &&
	grep "ref lock failed" outcomes-tmpfs &&
	grep "reflog copy failed" outcomes-tmpfs &&
	grep "fetch succeeded" outcomes-tmpfs
'

test_expect_success SMALL_FS,EXT2 'ext2: a full disk at every stage; the refs and reflogs agree after each' '
	small_fs_mount ext2 1024 &&
	test_when_finished small_fs_umount &&
	enospc_loop ext2 &&
	grep "objects failed" outcomes-ext2 &&
	grep "fetch succeeded" outcomes-ext2 &&
	git -C "$SMALL/consumer" rolling fetch -q origin
'

# A rename that fails half-way through the commit: the seam runs a
# command just before the verified ref's lock is renamed into place
# (the second file matching the pattern: the first is the lock's
# creation), after the tracking ref and its reflog, and the verified
# ref's reflog, were renamed.  (fetch runs the same command itself
# before it starts updating, when there is no lock yet: it does nothing
# then.)  A directory put where the verified ref
# was makes that rename fail for real (EISDIR).
fetch_failing_rename () {
	rm -rf consumer &&
	cp -a pristine consumer &&
	ref=$TRASH_DIRECTORY/consumer/.git/$VERIFIED &&
	GIT_ROLLING_TEST_SEAM_PATH="*/.git/$VERIFIED.lock" GIT_ROLLING_TEST_SEAM_NTH=2 \
	GIT_ROLLING_TEST_BEFORE_UPDATE="! test -f \"$ref.lock\" || { rm \"$ref\" && mkdir \"$ref\" && : >\"$ref/x\"$1; }" \
		LD_PRELOAD="$TEST_SEAM" git -C consumer rolling fetch -q origin 2>err
	echo $? >status &&
	rm -r "$ref" &&
	cp pristine/.git/$VERIFIED "$ref"
}

test_expect_success 'a rename that fails in the commit: every rename before it is put back' '
	old=$(cat old) &&
	fetch_failing_rename &&
	echo 128 >expect &&
	test_cmp expect status &&
	grep "^fatal: cannot update $VERIFIED: cannot rename .*: Is a directory; nothing was updated$" err &&
	refs_and_logs consumer >after &&
	test_cmp before after &&
	no_leftovers consumer &&
	git -C consumer fsck --no-progress
'

test_expect_success 'a rename that cannot be put back: the refs that moved are named' '
	old=$(cat old) && new=$(cat new) &&
	fetch_failing_rename " && rm \"$TRASH_DIRECTORY/consumer/.git/$TRACKING.rolling-old.lock\"" &&
	echo 128 >expect &&
	test_cmp expect status &&
	grep "^fatal: cannot update $VERIFIED: cannot rename .*: Is a directory; these could not be put back:$" err &&
	printf "\t%s\n" "$TRACKING moved" >expect &&
	sed -n "2,\$p" err >actual &&
	test_cmp expect actual &&
	! grep "nothing was updated" err &&
	test "$(git -C consumer rev-parse $TRACKING)" = $new &&
	test "$(git -C consumer rev-parse $VERIFIED)" = $old &&
	tail -n 1 consumer/.git/logs/$TRACKING | grep "^$old $new " &&
	cmp consumer/.git/logs/$VERIFIED pristine/.git/logs/$VERIFIED
'

test_done
