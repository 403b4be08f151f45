#!/bin/sh

test_description='a process killed by a signal leaves no lock behind

Every lock and temporary file the commands create is registered while it
exists (lib/tempfile.h) and removed when the process ends, by exit() or
killed by SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGPIPE, as git removes
its own; the process still dies of the signal.  test-rolling tempfile
and test-rolling lock try the registry and the locks on their own.

Then each test stops a command with SIGTERM while it holds one of its
files (the seam, t/helper/seam.c, fires just before or after a file the
run creates or renames), and checks that it died of the signal, that it
held the file then and left no lock, and that the next run of the same
command completes.

What is a record for the next run, not a lock, stays: the intent file of
an advance whose work tree git read-tree may have begun to change.  A
signal that comes while a branch and its reflogs, or a branch and the
index of its work tree, are being made to agree waits until they do.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

# --- the registry (test-rolling tempfile) ----------------------------------

# start_holder <what>...: test-rolling tempfile <what>... in the
# background, its pid in $holder, reading the fifo "go" (written through
# fd 9), saying what it says in "holder.out"; returns once it is ready.
start_holder () {
	rm -f go holder.out &&
	mkfifo go &&
	{ test-rolling tempfile "$@" <go >holder.out 2>holder.err & } &&
	holder=$! &&
	exec 9>go &&
	sh_tries=0 &&
	until grep -q "^ready$" holder.out 2>/dev/null
	do
		sh_tries=$((sh_tries + 1)) &&
		test $sh_tries -le 600 &&
		kill -0 $holder &&
		sleep 0.05 || { exec 9>&- && cat holder.err && return 1; }
	done
}

# stop_holder: let it go on (a line on its stdin); its exit status is
# in $status once it is gone.
stop_holder () {
	echo go >&9 &&
	exec 9>&- &&
	{ wait $holder; status=$?; }
}

# kill_holder SIG: the signal to it; its exit status in $status.
kill_holder () {
	kill -$1 $holder &&
	exec 9>&- &&
	{ wait $holder; status=$?; }
}

# signal_reaches SIG: a process started here dies of SIG.  Not so when
# the suite itself was started with SIG ignored (under nohup, or a CI
# runner that does `trap "" HUP`): every process started from it
# inherits that, and git rolling keeps a signal ignored at its start, as
# git does (the test of that is below).  Such a case cannot be tested
# here, and is skipped with the reason.
signal_reaches () {
	# the shell that waits for a process killed by a signal may say so
	sr_status=$( { sh -c "kill -$1 \$\$; exit 0"; echo $?; } 2>/dev/null ) &&
	test "$sr_status" -gt 128
}

for sig in TERM:143 HUP:129 PIPE:141
do
	if signal_reaches ${sig%:*}
	then
		test_set_prereq SIG${sig%:*}_NOT_IGNORED
	else
		say "# SIG${sig%:*} is ignored in this run (as under nohup): no process started here can die of it"
	fi
	test_expect_success SIG${sig%:*}_NOT_IGNORED "killed by SIG${sig%:*}: it dies of the signal, its files gone" '
		start_holder a b last:journal "unique:$TRASH_DIRECTORY/u.XXXXXX" &&
		unique=$(sed -n 1p holder.out) &&
		test_path_is_file a &&
		test_path_is_file journal &&
		test_path_is_file "$unique" &&
		kill_holder ${sig%:*} &&
		test $status = ${sig#*:} &&
		test_path_is_missing a &&
		test_path_is_missing b &&
		test_path_is_missing journal &&
		test_path_is_missing "$unique"
	'
done

test_expect_success 'a file kept as a record for the next run stays' '
	start_holder temp keep:record &&
	kill_holder TERM &&
	test $status = 143 &&
	test_path_is_missing temp &&
	test_path_is_file record &&
	rm record
'

test_expect_success 'a registered directory goes after the files in it, and only when empty' '
	start_holder "dir:$TRASH_DIRECTORY/q.XXXXXX" in:draft &&
	dir=$(sed -n 1p holder.out) &&
	test_path_is_file "$dir/draft" &&
	kill_holder TERM &&
	test $status = 143 &&
	test_path_is_missing "$dir" &&
	start_holder "dir:$TRASH_DIRECTORY/q.XXXXXX" &&
	dir=$(sed -n 1p holder.out) &&
	echo not ours >"$dir/other" &&
	kill_holder TERM &&
	test $status = 143 &&
	test_path_is_file "$dir/other" &&
	rm -r "$dir"
'

# fill_scratch DIR: files, directories three deep, and a link out of DIR.
fill_scratch () {
	mkdir -p "$1/a/b/c" "$1/d" &&
	echo x >"$1/a/b/c/file" &&
	echo y >"$1/d/file" &&
	echo z >"$1/file" &&
	echo outside >outside &&
	mkdir outside-dir &&
	echo kept >outside-dir/file &&
	ln -s "$TRASH_DIRECTORY/outside" "$1/link" &&
	ln -s "$TRASH_DIRECTORY/outside-dir" "$1/a/dir-link"
}

for end in TERM:143 exit:0
do
	test_expect_success "a scratch directory goes with all it holds at ${end%:*}, never through a link" '
		start_holder "scratch:$TRASH_DIRECTORY/s.XXXXXX" in:draft &&
		dir=$(sed -n 1p holder.out) &&
		fill_scratch "$dir" &&
		if test ${end%:*} = exit
		then
			stop_holder
		else
			kill_holder ${end%:*}
		fi &&
		test $status = ${end#*:} &&
		test_path_is_missing "$dir" &&
		test_path_is_file outside &&
		test_path_is_file outside-dir/file &&
		rm -r outside outside-dir
	'
done

test_expect_success 'at exit the files go, a kept one stays; a forked child removes none' '
	start_holder temp keep:record fork-exit &&
	test_path_is_file temp &&
	stop_holder &&
	test $status = 0 &&
	grep "^done$" holder.out &&
	test_path_is_missing temp &&
	test_path_is_file record &&
	rm record
'

test_expect_success 'a signal the process was started ignoring stays ignored' '
	rm -f go holder.out &&
	mkfifo go &&
	{ (trap "" HUP && exec test-rolling tempfile temp <go >holder.out) & } &&
	holder=$! &&
	exec 9>go &&
	until grep -q "^ready$" holder.out 2>/dev/null
	do
		kill -0 $holder && sleep 0.05 || return 1
	done &&
	kill -HUP $holder &&
	sleep 0.2 &&
	kill -0 $holder &&
	test_path_is_file temp &&
	kill_holder TERM &&
	test $status = 143 &&
	test_path_is_missing temp
'

test_expect_success 'a signal that comes while they are held ends the process at the release' '
	start_holder temp hold &&
	kill -TERM $holder &&
	sleep 0.2 &&
	kill -0 $holder &&
	test_path_is_file temp &&
	stop_holder &&
	test $status = 143 &&
	! grep "^done$" holder.out &&
	test_path_is_missing temp
'

test_expect_success 'a lock is renamed over its file or removed; one held is waited for, then named' '
	echo old >file &&
	test-rolling lock file 0 commit new &&
	echo new >expect &&
	test_cmp expect file &&
	test-rolling lock file 0 rollback newer &&
	test_cmp expect file &&
	test_path_is_missing file.lock &&
	: >file.lock &&
	test_must_fail test-rolling lock file 0 commit newer 2>err &&
	grep "^Unable to create .file\.lock.: File exists\.$" err &&
	grep "^remove the file manually to continue\.$" err &&
	test_cmp expect file &&
	{ (sleep 0.3 && rm file.lock) & } &&
	test-rolling lock file 5000 commit newest &&
	wait &&
	echo newest >expect &&
	test_cmp expect file &&
	test_path_is_missing file.lock
'

# --- the commands ----------------------------------------------------------

BRANCH=linux-rolling-stable

# The command the seam runs: "at-seam <pid> <git dir> self|child", <pid>
# the process the seam fired in (the shell's parent).  With "self" it
# acts only in git rolling itself, with "child" only in a git that git
# rolling runs.  It lists what the run holds in <git dir> into "held",
# then sends SIGTERM to git rolling (and to that git: a terminal's ^C
# reaches both).  The file it fired at is in "seam-file".
cat >at-seam <<\EOF
pid=$1 gitdir=$2 whom=$3
case $whom in
self) test "$pid" = "$GIT_ROLLING_PID" || exit 0 ;;
child) test "$pid" != "$GIT_ROLLING_PID" || exit 0 ;;
esac
(cd "$gitdir" && find . -name "*.lock" -o -name "rolling-ref-tx.*" -o -name "ROLLING_*" \
	-o -name "owner*" -o -name "rolling-incoming-*" | sort) >"$(dirname "$0")/held"
echo "$GIT_ROLLING_TEST_SEAM_FILE" >"$(dirname "$0")/seam-file"
kill -TERM $GIT_ROLLING_PID $pid
EOF

# term_at REPO before|after PATTERN NTH self|child <command> <args>...:
# git rolling <command> run in REPO, stopped by SIGTERM just before (or
# after) the NTH file matching PATTERN that it (self) or a git it runs
# (child) creates, appends to or renames; it must die of the signal.
# What it held then is in "held", what it left in "left".
term_at () {
	ta_repo=$1 ta_when=$2 ta_pattern=$3 ta_nth=$4 ta_whom=$5 &&
	shift 5 &&
	ta_gitdir=$(cd "$ta_repo" && git rev-parse --absolute-git-dir) &&
	if test $ta_when = after
	then
		ta_after=1
	else
		ta_after=
	fi &&
	rm -f held &&
	test_expect_code 143 env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="$ta_pattern" \
		GIT_ROLLING_TEST_SEAM_NTH=$ta_nth GIT_ROLLING_TEST_SEAM_AFTER=$ta_after \
		GIT_ROLLING_TEST_BEFORE_UPDATE="sh '$TRASH_DIRECTORY/at-seam' \$PPID '$ta_gitdir' $ta_whom" \
		git -C "$ta_repo" rolling "$@" 2>term.err &&
	test_path_is_file held &&
	(cd "$ta_gitdir" && find . -name "*.lock" -o -name "rolling-ref-tx.*" -o -name "ROLLING_*" \
		-o -name "owner*" -o -name "rolling-incoming-*" | sort) >left
}

# held_then FILE...: each FILE (relative to the git dir) was there when
# the signal came.
held_then () {
	for hf_file in "$@"
	do
		grep -x "\./$hf_file" held || { echo "not held: $hf_file" && cat held && return 1; }
	done
}

# no_lock_left: no lock file (nor the old file a ref transaction keeps
# beside one, named *.lock too), no journal, no draft of a quarantine's
# owner file.  A quarantine with its owner file in place stays: a signal
# handler cannot empty a directory tree, and the next fetch removes it,
# its owner gone.
no_lock_left () {
	! grep "\.lock$\|rolling-ref-tx\|owner\.draft" left || { echo "left behind:" && cat left && return 1; }
}

# consistent TAG: in tree, branch, index and files agree at the rolling
# merge of TAG, and the branch verifies.
consistent () {
	test "$(check_rolling_merge HEAD)" = "$1" &&
	git diff --quiet HEAD &&
	git diff --cached --quiet HEAD &&
	test_path_is_missing .git/index.lock &&
	test_path_is_missing .git/ROLLING_ADVANCE &&
	git rolling verify -q $BRANCH
}

test_expect_success 'setup: a checked-out rolling branch; a consumer that fetched once' '
	stable_tree_linux tree &&
	stable_tree_replay tree 40 &&
	git -C tree rolling init -q $BRANCH &&
	git -C tree checkout -q $BRANCH &&
	setup_upstream &&
	publish 12 &&
	consumer_fetched_once
'

# --- advance of a checked-out branch --------------------------------------

test_expect_success 'killed holding the draft of the intent file: nothing is left' '
	tag=$(cd tree && add_release "echo draft >draft-file") &&
	term_at tree after "*/.git/ROLLING_ADVANCE.*" 1 self advance -q &&
	held_then "ROLLING_ADVANCE.draft-[0-9a-f]*" &&
	test_must_be_empty left &&
	(cd tree && test_path_is_missing draft-file && git rolling advance -q && consistent $tag)
'

test_expect_success 'killed holding the intent file, before the index lock: nothing is left' '
	tag=$(cd tree && add_release "echo intent >intent-file") &&
	term_at tree before "*/tree/.git/index.lock" 1 self advance -q &&
	held_then ROLLING_ADVANCE &&
	test_must_be_empty left &&
	(cd tree && test_path_is_missing intent-file && git rolling advance -q && consistent $tag)
'

test_expect_success 'killed with git read-tree about to write: the index lock goes, the intent stays' '
	tag=$(cd tree && add_release "echo read-tree >read-tree-file") &&
	term_at tree before "*/tree/.git/index.lock.lock" 1 child advance -q &&
	held_then ROLLING_ADVANCE index.lock &&
	no_lock_left &&
	test_path_is_file tree/.git/ROLLING_ADVANCE &&
	(cd tree && git rolling advance -q && consistent $tag)
'

test_expect_success 'killed with the files written, before the branch moves: finished by the next run' '
	tag=$(cd tree && add_release "echo written >written-file && echo written >>README") &&
	old=$(git -C tree rev-parse HEAD) &&
	term_at tree before "*/tree/.git/index.lock.lock" 2 child advance -q &&
	held_then ROLLING_ADVANCE index.lock index.lock.lock &&
	no_lock_left &&
	test_path_is_file tree/.git/ROLLING_ADVANCE &&
	test_path_is_file tree/written-file &&
	test "$(git -C tree rev-parse HEAD)" = $old &&
	(cd tree && git rolling advance -q && consistent $tag)
'

# at-seam-parent <pid>: fired in a git that git rolling runs (<pid>),
# SIGTERM to git rolling alone, as a kill of its pid sends it; the
# seam returns only once git rolling is gone (10 s at most), so that a
# git it left running would go on and write the index lock anew.  The
# git's pid is in "child-pid", "seam-done" says it returned.
cat >at-seam-parent <<\EOF
pid=$1
test "$pid" != "$GIT_ROLLING_PID" || exit 0
dir=$(dirname "$0")
echo $pid >"$dir/child-pid"
kill -TERM $GIT_ROLLING_PID
tries=0
while kill -0 $GIT_ROLLING_PID 2>/dev/null && test $tries -lt 1000
do
	sleep 0.01
	tries=$((tries + 1))
done
: >"$dir/seam-done"
EOF

test_expect_success 'no git that advance runs outlives it: killed with it, before the lock goes' '
	tag=$(cd tree && add_release "echo outlived >outlived-file") &&
	rm -f child-pid seam-done &&
	test_expect_code 143 env LD_PRELOAD="$TEST_SEAM" \
		GIT_ROLLING_TEST_SEAM_PATH="*/tree/.git/index.lock.lock" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="sh '\''$TRASH_DIRECTORY/at-seam-parent'\'' \$PPID" \
		git -C tree rolling advance -q 2>term.err &&
	tries=0 &&
	until test -f seam-done
	do
		tries=$((tries + 1)) &&
		test $tries -le 1000 &&
		sleep 0.01 || return 1
	done &&
	test_path_is_file child-pid &&
	# gone, not a zombie: the run that started it waited for it
	! kill -0 $(cat child-pid) 2>/dev/null &&
	test_path_is_missing tree/.git/index.lock &&
	test_path_is_missing tree/.git/index.lock.lock &&
	test_path_is_file tree/.git/ROLLING_ADVANCE &&
	(cd tree && git rolling advance -q && consistent $tag)
'

# Interrupted as ^C interrupts it, whatever git the run starts: a git
# first on PATH that, as git read-tree, writes its pid into
# "read-tree-pid", sends SIGINT to git rolling alone (its parent) and
# then becomes the real git read-tree, which would go on, if nothing
# ended it, to write the index lock after the run removed it.  Started
# ignoring SIGINT (a job in the background of a shell without job
# control), git rolling keeps ignoring it: then this cannot be tested.
if signal_reaches INT
then
	test_set_prereq SIGINT_NOT_IGNORED
else
	say "# SIGINT is ignored in this run (a background job): no process started here can die of it"
fi

test_expect_success SIGINT_NOT_IGNORED 'interrupted while git read-tree runs: it is ended and waited for' '
	tag=$(cd tree && add_release "echo interrupted >interrupted-file") &&
	real_git=$(command -v git) &&
	mkdir -p interrupting &&
	cat >interrupting/git <<-EOF &&
	#!/bin/sh
	case " \$* " in
	*" read-tree "*)
		echo \$\$ >"$TRASH_DIRECTORY/read-tree-pid" &&
		kill -INT \$PPID ;;
	esac
	exec "$real_git" "\$@"
	EOF
	chmod +x interrupting/git &&
	rm -f read-tree-pid &&
	# git-rolling itself: git would put its exec-path, and its own git,
	# first on PATH
	(cd tree && test_expect_code 130 env PATH="$TRASH_DIRECTORY/interrupting:$PATH" \
		git-rolling advance -q 2>../int.err) &&
	test_path_is_file read-tree-pid &&
	pid=$(cat read-tree-pid) &&
	# one that outlived the run would be running, or done writing, now
	tries=0 &&
	while kill -0 $pid 2>/dev/null
	do
		tries=$((tries + 1)) &&
		test $tries -le 1000 &&
		sleep 0.01 || return 1
	done &&
	{ test $tries = 0 || { echo "git read-tree ($pid) outlived the run" && return 1; }; } &&
	test_path_is_missing tree/.git/index.lock &&
	test_path_is_missing tree/.git/index.lock.lock &&
	test_path_is_file tree/.git/ROLLING_ADVANCE &&
	(cd tree && git rolling advance -q && consistent $tag)
'

test_expect_success REFFILES 'a signal while the branch moves waits until branch and index agree' '
	tag=$(cd tree && add_release "echo moving >moving-file") &&
	term_at tree before "*/tree/.git/refs/heads/*.lock" 1 self advance -q &&
	held_then ROLLING_ADVANCE index.lock &&
	test_must_be_empty left &&
	(cd tree && consistent $tag && git rolling advance -q && consistent $tag)
'

test_expect_success REFFILES 'killed holding HEAD.lock and the branch'"'"'s lock: nothing is left' '
	tag=$(cd tree && add_release "echo head >head-file") &&
	term_at tree after "*/tree/.git/HEAD.lock" 1 self advance -q &&
	held_then HEAD.lock "refs/heads/$BRANCH.lock" "rolling-ref-tx.[0-9]*" index.lock &&
	test_must_be_empty left &&
	(cd tree && consistent $tag && git rolling advance -q && consistent $tag)
'

# --- advance of a branch that is not checked out ---------------------------

test_expect_success REFFILES 'killed holding the lock of a branch not checked out: it goes' '
	tag=$(cd tree && add_release "echo detached >detached-file") &&
	git -C tree checkout -q --detach &&
	test_when_finished "git -C tree checkout -q $BRANCH" &&
	term_at tree after "*/tree/.git/rolling-ref-tx.*" 1 self advance -q &&
	held_then "refs/heads/$BRANCH.lock" "rolling-ref-tx.[0-9]*.draft-[0-9a-f]*" &&
	test_must_be_empty left &&
	git -C tree rolling advance -q &&
	test "$(cd tree && check_rolling_merge $BRANCH)" = $tag &&
	git -C tree rolling verify -q $BRANCH
'

# --- fetch ------------------------------------------------------------------

# fetched: the consumer has the server'"'"'s tip, verified, and nothing of
# a fetch is left (no_leftovers, lib-fetch.sh).
fetched () {
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	test "$(git -C consumer rev-parse refs/remotes/origin/$BRANCH)" = $new &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = $new &&
	git -C consumer rolling verify -q refs/rolling/verified/origin/$BRANCH &&
	no_leftovers consumer
}

test_expect_success 'killed holding the draft of the quarantine'"'"'s owner file: nothing is left' '
	publish 13 &&
	term_at consumer after "*/rolling-incoming-*/owner.draft-*" 1 self fetch -q origin &&
	held_then "objects/rolling-incoming-.*/owner.draft-[0-9a-f]*" &&
	test_must_be_empty left &&
	git -C consumer rolling fetch -q origin &&
	fetched
'

test_expect_success REFFILES 'killed holding the first ref lock of a fetch: it goes' '
	publish 14 &&
	term_at consumer after "*/consumer/.git/refs/*.lock" 1 self fetch -q origin &&
	grep "^\./refs/.*\.lock$" held &&
	no_lock_left &&
	git -C consumer rolling fetch -q origin &&
	fetched
'

test_expect_success REFFILES 'killed holding every ref lock of a fetch and their journal: they go' '
	publish 15 &&
	term_at consumer after "*/consumer/.git/rolling-ref-tx.*" 1 self fetch -q origin &&
	held_then "refs/remotes/origin/$BRANCH.lock" "refs/rolling/verified/origin/$BRANCH.lock" \
		"rolling-ref-tx.[0-9]*.draft-[0-9a-f]*" &&
	no_lock_left &&
	git -C consumer rolling fetch -q origin &&
	fetched
'

test_expect_success REFFILES 'a signal while the refs and their reflogs move waits until they agree' '
	publish 17 &&
	term_at consumer before "*/consumer/.git/logs/refs/*" 1 self fetch -q origin &&
	held_then "refs/remotes/origin/$BRANCH.lock" "rolling-ref-tx.[0-9]*" \
		"refs/remotes/origin/$BRANCH.rolling-old.lock" &&
	no_lock_left &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	for ref in refs/remotes/origin/$BRANCH refs/rolling/verified/origin/$BRANCH
	do
		test "$(git -C consumer rev-parse $ref)" = $new &&
		test "$(tail -n 1 consumer/.git/logs/$ref | cut -d" " -f2)" = $new || return 1
	done &&
	git -C consumer rolling fetch -q origin &&
	fetched
'

# --- what a git run meanwhile would inherit ----------------------------------

# fds-at-seam <pid> <git dir>: fired in git rolling itself (<pid>),
# lists the files of <git dir> open on the descriptors this shell has:
# system() gave it every descriptor of git rolling that is not
# close-on-exec, as a git started then would get them.
cat >fds-at-seam <<\EOF
test "$1" = "$GIT_ROLLING_PID" || exit 0
gitdir=$2
for fd in /proc/$$/fd/*
do
	target=$(readlink "$fd") || continue
	case $target in
	"$gitdir"/*) echo "${target#$gitdir/}" ;;
	esac
done >"$(dirname "$0")/inherited"
echo "$GIT_ROLLING_TEST_SEAM_FILE" >"$(dirname "$0")/seam-file"
EOF

# inherited_at REPO PATTERN <command>...: git rolling <command> in REPO,
# with fds-at-seam run just after it creates the first file matching
# PATTERN; what a git started then would inherit of the git directory
# is in "inherited".
inherited_at () {
	ia_repo=$1 ia_pattern=$2 &&
	shift 2 &&
	ia_gitdir=$(cd "$ia_repo" && git rev-parse --absolute-git-dir) &&
	rm -f inherited seam-file &&
	env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="$ia_pattern" \
		GIT_ROLLING_TEST_SEAM_AFTER=1 \
		GIT_ROLLING_TEST_BEFORE_UPDATE="sh '$TRASH_DIRECTORY/fds-at-seam' \$PPID '$ia_gitdir'" \
		git -C "$ia_repo" rolling "$@" &&
	test_path_is_file seam-file &&
	test_path_is_file inherited
}

# Locks, journals, drafts and owner files are close-on-exec: a git that
# inherited one would hold its flock, or keep the file open, after the
# run that made it is gone.  The intent file alone is inherited, on
# purpose: the git read-tree it runs holds its flock with it
# (lib/worktree.c).
test_expect_success REFFILES 'no lock or journal reaches a git that advance runs' '
	tag=$(cd tree && add_release "echo inherit >inherit-file") &&
	inherited_at tree "*/tree/.git/rolling-ref-tx.*" advance -q &&
	grep "rolling-ref-tx" seam-file &&
	# the intent file, by the name of its draft (linked into place)
	sed "/^ROLLING_ADVANCE\.draft-[0-9a-f]* (deleted)$/d" inherited >leaked &&
	test_must_be_empty leaked &&
	(cd tree && consistent $tag)
'

test_expect_success REFFILES 'no lock, journal or owner file reaches a git that fetch runs' '
	publish 18 &&
	inherited_at consumer "*/consumer/.git/rolling-ref-tx.*" fetch -q origin &&
	grep "rolling-ref-tx" seam-file &&
	test_must_be_empty inherited &&
	fetched
'

# --- bisect-helper ----------------------------------------------------------

test_expect_success 'killed holding the lock of the bisection state: it goes' '
	good=$(cd tree && git log --first-parent --format=%s $BRANCH | sed -n "s/^Merge //p" | tail -n 1) &&
	bad=$(cd tree && check_rolling_merge $BRANCH) &&
	test_when_finished "git -C tree rolling bisect-helper reset" &&
	term_at tree after "*/ROLLING_BISECT.lock" 1 self bisect-helper start $bad $good &&
	held_then ROLLING_BISECT.lock &&
	test_must_be_empty left &&
	git -C tree rolling bisect-helper start $bad $good >out &&
	grep "^testing " out &&
	test_path_is_file tree/.git/ROLLING_BISECT
'

test_done
