#!/bin/sh

test_description='git rolling fetch killed with kill -9

A fetch killed after the server'"'"'s objects reached the quarantine, or
after they were moved into the object store but before the refs moved,
leaves every ref at its old value; the next fetch removes what the dead
one left and completes.  A quarantine of a fetch still running is not
touched, nor one that the git fetch of a fetch killed alone still
writes into: the run after that git fetch ended removes it.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

snapshot () {
	git -C consumer for-each-ref --format="%(objectname) %(refname)" >"$1"
}

test_expect_success 'setup: a consumer that fetched once' '
	setup_upstream &&
	publish 12 &&
	consumer_fetched_once
'

test_expect_success 'killed with the objects in the quarantine: refs untouched, objects unseen' '
	publish 13 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	snapshot before &&
	test_expect_code 137 fetch_seam transferred "kill -9 \$GIT_ROLLING_PID" \
		git -C consumer rolling fetch -q origin &&
	snapshot after &&
	test_cmp before after &&
	ls -d consumer/.git/objects/rolling-incoming-* >left &&
	test_line_count = 1 left &&
	find "$(cat left)" -type f ! -name owner >files &&
	test_line_count -gt 0 files &&
	test_must_fail git -C consumer cat-file -e $new &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES="$TRASH_DIRECTORY/$(cat left)" \
		git -C consumer cat-file -e $new
'

test_expect_success 'the next fetch removes the dead quarantine and completes' '
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: verified$" out &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	test "$(git -C consumer rev-parse refs/remotes/origin/$BRANCH)" = "$new" &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null &&
	git -C consumer fsck --no-progress
'

test_expect_success 'killed after the objects moved in, before the refs did' '
	publish 14 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	snapshot before &&
	test_expect_code 137 fetch_seam updating "kill -9 \$GIT_ROLLING_PID \$PPID" \
		git -C consumer rolling fetch -q origin &&
	snapshot after &&
	test_cmp before after &&
	git -C consumer rev-list --all --objects >reachable &&
	! grep "^$new" reachable &&
	! ls consumer/.git/refs/remotes/origin/*.lock consumer/.git/refs/rolling/verified/origin/*.lock 2>/dev/null &&
	git -C consumer rolling fetch -q origin &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
'

# start_held_fetch: a fetch that stops after its transfer until the file
# "go" exists; its process id goes to held.pid.  However the test ends,
# "go" is made and the fetch waited for: held, it would keep prove
# waiting for the script's output.  (-i skips that when the test fails:
# the fetch then goes on after five minutes.)
start_held_fetch () {
	rm -f go &&
	test_when_finished ": >\"$TRASH_DIRECTORY/go\"; wait \$(cat \"$TRASH_DIRECTORY/held.pid\"); true" &&
	{
		fetch_seam transferred "n=0; until test -f \"$TRASH_DIRECTORY/go\" || test \$n = 3000; do sleep 0.1; n=\$((n + 1)); done" \
			git -C consumer rolling fetch -q origin >held.out 2>&1 &
	} &&
	echo $! >held.pid
}

wait_for_quarantine () {
	wq_tries=0 &&
	while ! ls -d consumer/.git/objects/rolling-incoming-*/pack >/dev/null 2>&1
	do
		test $wq_tries -lt 300 || return 1
		sleep 0.1
		wq_tries=$((wq_tries + 1))
	done
}

test_expect_success 'the quarantine of a fetch still running is left alone' '
	publish 15 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	start_held_fetch &&
	wait_for_quarantine &&
	ls -d consumer/.git/objects/rolling-incoming-* >held.dir &&
	git -C consumer rolling fetch -q origin &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	test_path_is_dir "$(cat held.dir)" &&
	: >go &&
	wait $(cat held.pid) &&
	grep "^origin/$BRANCH: another process updated it meanwhile to $(echo $new | cut -c1-7).*, the tip this fetch verified$" held.out &&
	! grep "^fatal\|^error" held.out &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
'

# kill_fetch_at K: a copy of pristine (consumer-k) fetches, killed with
# kill -9 just before its Kth creation or rename of a ref lock (the
# seam, t/helper/seam.c): the tags' locks, then the tracking ref's and
# the verified ref's, then their renames in that order.  Its exit status
# goes to $status.
kill_fetch_at () {
	rm -rf consumer-k &&
	cp -a pristine consumer-k &&
	{
		env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/consumer-k/.git/refs/*.lock" \
			GIT_ROLLING_TEST_SEAM_NTH=$1 \
			GIT_ROLLING_TEST_BEFORE_UPDATE="$(test_kill_group_command)" \
			setsid -w git -C consumer-k rolling fetch -q origin 2>kill.err
		status=$?
	} &&
	test_wait_group_gone
}

# finish_fetch: the next fetch completes, or refuses naming the lock
# files the killed one left, and says nothing was updated
# (rerun_finishes, lib-fetch.sh).
finish_fetch () {
	rerun_finishes consumer-k fetch -q origin &&
	{
		test ! -f refused.err ||
		grep "^nothing was updated$" refused.err
	}
}

# complete: both refs at the server's tip, every release tag the server
# has that the consumer needs at its value there, each ref's reflog
# ending at the ref, the branch verified, nothing left behind.
complete () {
	test "$(git -C consumer-k rev-parse refs/remotes/origin/$BRANCH)" = $new &&
	test "$(git -C consumer-k rev-parse refs/rolling/verified/origin/$BRANCH)" = $new &&
	for tag in $(cat new-tags)
	do
		test "$(git -C consumer-k rev-parse refs/tags/$tag)" = \
			"$(git --git-dir=server.git rev-parse refs/tags/$tag)" || return 1
	done &&
	for ref in refs/remotes/origin/$BRANCH refs/rolling/verified/origin/$BRANCH
	do
		test "$(tail -n 1 consumer-k/.git/logs/$ref | cut -d" " -f2)" = \
			"$(git -C consumer-k rev-parse $ref)" || return 1
	done &&
	git -C consumer-k rolling verify -q refs/rolling/verified/origin/$BRANCH &&
	no_leftovers consumer-k &&
	git -C consumer-k fsck --no-progress
}

test_expect_success REFFILES "killed at $TEST_POINTS lock and rename of its refs: the next fetch finishes it" '
	rm -rf pristine &&
	cp -a consumer pristine &&
	git -C pristine tag -l >tags-before &&
	publish 16 &&
	publish 17 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	git -C consumer rolling fetch -q origin &&
	git -C consumer tag -l >tags-after &&
	comm -13 tags-before tags-after >new-tags &&
	test_line_count -gt 1 new-tags &&
	k=1 &&
	while kill_fetch_at $k && test $status = 137
	do
		echo "killed at $k" >>kills &&
		finish_fetch &&
		complete || { echo "not complete after a kill at $k" && cat kill.err next.err && return 1; }
		k=$((k + TEST_POINT_STEP))
	done &&
	test $status = 0 &&
	complete &&
	test_line_count -ge $((2 * ($(wc -l <new-tags) + 2) / TEST_POINT_STEP)) kills
'

# A journal of a ref transaction (rolling-ref-tx.<pid>) names the locks
# its run holds and what they hold.  One whose flock is held belongs to
# a living run: its locks are not touched.  One whose run is gone lets
# the next run remove the locks that hold what it says, and only those.
test_expect_success REFFILES 'a living run'"'"'s journal is left alone; a dead one'"'"'s locks are removed' '
	rm -rf consumer-k &&
	cp -a pristine consumer-k &&
	lock="$TRASH_DIRECTORY/consumer-k/.git/refs/rolling/verified/origin/$BRANCH.lock" &&
	journal=consumer-k/.git/rolling-ref-tx.424242 &&
	echo $new >"$lock" &&
	printf "L%s\n\000%s\000" $new "$lock" >"$journal" &&
	# flock holds the lock while its command runs; the command holds
	# neither the lock nor the output prove waits for
	{ flock -o "$journal" sh -c "echo \$\$ >sleeper.pid && exec sleep 60" \
		>/dev/null 2>&1 & } &&
	holder=$! &&
	while flock -n "$journal" true || ! test -s sleeper.pid
	do
		sleep 0.1
	done &&
	test_expect_code 128 git -C consumer-k rolling fetch -q origin 2>err &&
	grep "^fatal: cannot lock ref .refs/rolling/verified/origin/$BRANCH.: Unable to create .$lock.: File exists\.$" err &&
	test_path_is_file "$lock" &&
	test_path_is_file "$journal" &&
	{ kill $holder $(cat sleeper.pid); wait $holder; true; } &&
	git -C consumer-k rolling fetch -q origin &&
	complete &&
	test_path_is_missing "$journal"
'

test_expect_success REFFILES 'a dead run'"'"'s journal does not make another writer'"'"'s lock its own' '
	rm -rf consumer-k &&
	cp -a pristine consumer-k &&
	lock="$TRASH_DIRECTORY/consumer-k/.git/refs/rolling/verified/origin/$BRANCH.lock" &&
	git -C consumer-k rev-parse refs/remotes/origin/$BRANCH >"$lock" &&
	printf "L%s\n\000%s\000" $new "$lock" >consumer-k/.git/rolling-ref-tx.424242 &&
	test_expect_code 128 git -C consumer-k rolling fetch -q origin 2>err &&
	grep "^fatal: cannot lock ref .refs/rolling/verified/origin/$BRANCH.: Unable to create .$lock.: File exists\.$" err &&
	test_path_is_file "$lock" &&
	rm "$lock" &&
	git -C consumer-k rolling fetch -q origin &&
	complete
'

# orphan-at-seam <pid>: fired in a process of a git rolling fetch run
# under the seam; does something only in <pid> = git fetch, the child of
# git rolling ($GIT_ROLLING_PID).  There, with git fetch paused before
# it writes a file into the quarantine: its pid to orphan.pid, git
# rolling killed with kill -9 (its pid alone: git fetch lives on, an
# orphan), then the next whole git rolling fetch run (exit status in
# next.status, the quarantines left after it in during), in the
# environment of the test, without what git rolling and git gave git
# fetch.  Then git fetch goes on.
cat >orphan-at-seam <<\EOF
test "$(sed "s/.*) [A-Za-z] \([0-9]*\) .*/\1/" /proc/$1/stat)" = "$GIT_ROLLING_PID" || exit 0
dir=$(dirname "$0")
echo "$1" >"$dir/orphan.pid"
kill -9 "$GIT_ROLLING_PID"
tries=0
while test -d /proc/$GIT_ROLLING_PID &&
      ! grep -q "^[0-9]* (.*) Z" /proc/$GIT_ROLLING_PID/stat 2>/dev/null
do
	test $tries -lt 600 || exit 1
	sleep 0.1
	tries=$((tries + 1))
done
env -u GIT_DIR -u GIT_WORK_TREE -u GIT_OBJECT_DIRECTORY \
	-u GIT_ALTERNATE_OBJECT_DIRECTORIES -u GIT_CONFIG_PARAMETERS \
	-u GIT_CONFIG_COUNT -u GIT_PREFIX -u GIT_ROLLING_PID \
	git -C "$dir/consumer" rolling fetch -q origin >"$dir/next.out" 2>"$dir/next.err"
echo $? >"$dir/next.status"
ls -d "$dir"/consumer/.git/objects/rolling-incoming-* >"$dir/during" 2>/dev/null
exit 0
EOF

# gone PID: the process PID has ended (a zombie no one reaped yet has
# ended too: its descriptors are closed).
gone () {
	! test -d /proc/$1 || grep -q "^[0-9]* (.*) Z" /proc/$1/stat 2>/dev/null
}

# A git rolling fetch killed alone (kill -9 of its pid, not of its group)
# leaves its git fetch running, writing into the quarantine.  The
# quarantine stays while that git fetch lives (it holds the owner file's
# flock, inherited), so that git fetch never re-creates it once the next
# run removed it, ownerless for UNOWNED_GRACE_SECONDS (lib/quarantine.c);
# the run after the orphan ended removes it.
test_expect_success 'killed alone while its git fetch writes: the quarantine outlives that git fetch only' '
	publish 18 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	rm -f orphan.pid next.status during &&
	test_expect_code 137 env LD_PRELOAD="$TEST_SEAM" \
		GIT_ROLLING_TEST_SEAM_PATH="*/consumer/.git/objects/rolling-incoming-*/view/refs/*" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="sh \"$TRASH_DIRECTORY/orphan-at-seam\" \$PPID" \
		git -C consumer rolling fetch -q origin &&
	orphan=$(cat orphan.pid) &&
	tries=0 &&
	until gone $orphan
	do
		test $tries -lt 1200 || { echo "git fetch $orphan still running" && return 1; }
		sleep 0.1 &&
		tries=$((tries + 1))
	done &&
	cat next.err &&
	echo 0 >expect.status &&
	test_cmp expect.status next.status &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	git -C consumer rolling fetch -q origin &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	no_leftovers consumer &&
	git -C consumer fsck --no-progress &&
	# the next run had left the quarantine of the living git fetch
	test_line_count = 1 during
'

# The owner file is read-only (0444): a sweep opens it to read, as it
# only needs its flock.  Opened to write, it is refused to any user but
# root, so a user's fetch never removed a dead quarantine of its own.
# as-nobody runs a command as nobody, whose git finds the repositories
# root made safe (its global config); a program, for fetch_seam to run.
as_nobody () {
	"$TRASH_DIRECTORY/as-nobody" "$@"
}
if test "$(id -u)" = 0 &&
	printf "#!/bin/sh\nexec setpriv --reuid=nobody --regid=%s --clear-groups env GIT_CONFIG_GLOBAL='%s' \"\$@\"\n" \
		"$(id -g nobody)" "$TRASH_DIRECTORY/nobody-home/.gitconfig" >as-nobody &&
	chmod +x as-nobody &&
	as_nobody test -r "$TRASH_DIRECTORY/server.git/HEAD" -a \
		-x "$(command -v git-rolling-fetch)" 2>/dev/null &&
	mkdir nobody-home &&
	{ cat "$HOME/.gitconfig" 2>/dev/null; printf "[safe]\n\tdirectory = *\n"; } >nobody-home/.gitconfig
then
	test_set_prereq NOT_ROOT_TOO
fi

test_expect_success NOT_ROOT_TOO 'a user who is not root: the next fetch removes the dead quarantine' '
	publish 19 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	rm -rf mine && cp -a consumer mine &&
	chown -R nobody mine &&
	# the seam marks its one run in the trash directory
	chmod o+w . &&
	test_when_finished "chmod o-w \"$TRASH_DIRECTORY\"" &&
	test_expect_code 137 fetch_seam transferred "kill -9 \$PPID" \
		"$TRASH_DIRECTORY/as-nobody" git -C mine rolling fetch -q origin &&
	ls -d mine/.git/objects/rolling-incoming-*/owner >left &&
	test "$(stat -c %a%U "$(cat left)")" = 444nobody &&
	as_nobody git -C mine rolling fetch -q origin &&
	test "$(as_nobody git -C mine rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	! ls -d mine/.git/objects/rolling-incoming-* 2>/dev/null
'

test_done
