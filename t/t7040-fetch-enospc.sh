#!/bin/sh

test_description='git rolling fetch on a full disk: all its refs move, or none

The consumer repository lives on a small tmpfs that the test fills to
leave 0, 1, 2, ... pages free, so that the disk runs out at every stage
of a fetch in turn: the objects, the quarantine, the ref locks, the
reflog appends, the renames.  After every failure the tracking ref, the
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
	git init -q $(test_ref_format_files) pristine &&
	git -C pristine remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C pristine rolling init -q --follow origin/$BRANCH &&
	git -C pristine rolling fetch -q origin &&
	old=$(git -C pristine rev-parse $VERIFIED) &&
	publish 13 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	test $old != $new &&
	refs_and_logs pristine >before &&
	echo $old >old && echo $new >new
'

# fetch_leaving UNITS: a fresh copy of the consumer on the small file
# system, filled to leave UNITS pages or blocks, fetches; its exit
# status is in $status, its stderr in err.
fetch_leaving () {
	rm -rf "$SMALL/consumer" "$SMALL/filler" &&
	cp -a pristine "$SMALL/consumer" &&
	small_fs_leave $(($1 * small_fs_page)) &&
	free=$small_fs_left &&
	{ git -C "$SMALL/consumer" rolling fetch -q origin 2>err; status=$?; } &&
	small_fs_unfill
}

# failure_stage: what a failed fetch said (err) names the real cause, and
# says that nothing was updated where it could not update a ref, and
# nothing could not be put back (else a complaint and false); and the
# stage it failed at, which the message names, on stdout.  One awk for
# what took a grep each, up to fourteen per step.
failure_stage () {
	awk -v tracking="$TRACKING" -v verified="$VERIFIED" '
	/No space left on device/ { nospace = 1 }
	/^fatal: cannot update/ { update = 1 }
	/nothing was updated$/ { nothing = 1 }
	/these could not be put back/ { notback = 1 }
	/cannot update .*: cannot (write|open) .*\/logs\// { s["reflog append"] = 1 }
	/rolling-ref-tx\./ { s["ref journal"] = 1 }
	$0 ~ "cannot update " tracking ": cannot write .*" tracking ".lock" ||
	$0 ~ "cannot update " verified ": cannot write .*" verified ".lock" { s["ref lock"] = 1 }
	/cannot update refs\/tags\/.*: cannot write .*refs\/tags\/.*\.lock/ { s["tag ref lock"] = 1 }
	/cannot update .*: cannot create .*\.lock/ || /cannot lock ref/ { s["lock creation"] = 1 }
	/cannot create directory/ { s["ref directory"] = 1 }
	/cannot keep/ { s["keeping the old file"] = 1 }
	/cannot rename/ { s["rename"] = 1 }
	/cannot list the refs of/ { s["the server'"'"'s ref list (git ls-remote'"'"'s output)"] = 1 }
	/quarantine|rolling-incoming/ { s["quarantine"] = 1 }
	END {
		bad = 0
		if (!nospace) { print "the message does not say No space left on device" >"/dev/stderr"; bad = 1 }
		if (update && !nothing) { print "cannot update, but not: nothing was updated" >"/dev/stderr"; bad = 1 }
		if (notback) { print "something could not be put back" >"/dev/stderr"; bad = 1 }
		if (bad) exit 1
		n = split("reflog append|ref journal|ref lock|tag ref lock|lock creation|ref directory|keeping the old file|rename|the server'"'"'s ref list (git ls-remote'"'"'s output)|quarantine", order, "|")
		for (i = 1; i <= n; i++)
			if (order[i] in s) { print order[i]; exit 0 }
		print "objects"
	}' err || { cat err >&2 && return 1; }
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
		stage=$(failure_stage) &&
		refs_and_logs "$SMALL/consumer" >after &&
		test_cmp before after &&
		no_leftovers "$SMALL/consumer" &&
		git -C "$SMALL/consumer" fsck --no-progress &&
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
	grep "reflog append failed" outcomes-tmpfs &&
	grep "fetch succeeded" outcomes-tmpfs
'

test_expect_success EXPENSIVE,SMALL_FS,EXT2 'ext2: a full disk at every stage; the refs and reflogs agree after each' '
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
# ref's reflog, were renamed.  A directory put where the verified ref
# was makes that rename fail for real (EISDIR).
fetch_failing_rename () {
	rm -rf consumer &&
	cp -a pristine consumer &&
	ref=$TRASH_DIRECTORY/consumer/.git/$VERIFIED &&
	GIT_ROLLING_TEST_SEAM_PATH="*/.git/$VERIFIED.lock" GIT_ROLLING_TEST_SEAM_NTH=2 \
	GIT_ROLLING_TEST_BEFORE_UPDATE="rm \"$ref\" && mkdir \"$ref\" && : >\"$ref/x\"$1" \
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
