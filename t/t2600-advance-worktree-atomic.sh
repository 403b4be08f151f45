#!/bin/sh

test_description='advance of a checked-out branch: all or nothing, like git

The index lock is taken before any file is touched and held until the
index, the files and the branch agree; a failure puts back what was
written; a killed run is finished or undone by the next advance; what
git merge --ff-only refuses is refused.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-hold-lock.sh

# state FILE: everything an advance could change in this work tree.
state () {
	{
		git rev-parse HEAD linux-rolling-stable &&
		git ls-files -s &&
		git status --porcelain --untracked-files=all &&
		git diff &&
		cat Makefile
	} >"$1"
}

# consistent TAG: branch, index and files agree, at the rolling merge of TAG.
consistent () {
	test "$(check_rolling_merge HEAD)" = "$1" &&
	git diff --quiet HEAD &&
	git diff --cached --quiet HEAD &&
	test_path_is_missing .git/index.lock &&
	test_path_is_missing .git/ROLLING_ADVANCE
}

test_expect_success 'setup: rolling branch checked out at week 40' '
	stable_tree_linux tree &&
	stable_tree_replay tree 40 &&
	cd tree &&
	git rolling init -q linux-rolling-stable &&
	git checkout -q linux-rolling-stable
'

test_expect_success 'a held index lock: nothing is touched, the lock is named' '
	cd tree &&
	tag=$(add_release "echo new >new-file") &&
	state ../before &&
	: >.git/index.lock &&
	test_expect_code 128 git rolling advance 2>../err &&
	grep "^fatal: Unable to create .$(pwd -P)/.git/index.lock.: File exists\.$" ../err &&
	grep "^remove the file manually to continue\.$" ../err &&
	grep "^nothing was changed$" ../err &&
	rm .git/index.lock &&
	test_path_is_missing new-file &&
	state ../after &&
	test_cmp ../before ../after &&
	git rolling advance -q &&
	consistent $tag
'

test_expect_success REFFILES 'HEAD locked by another git: refused as git commit refuses; the lock stays' '
	cd tree &&
	tag=$(add_release "echo head-lock >head-lock-file") &&
	state ../before &&
	cp .git/logs/HEAD ../head-log &&
	echo "ref: refs/heads/linux-rolling-stable" >.git/HEAD.lock &&
	test_must_fail git commit -q --allow-empty -m "another commit" 2>../git-err &&
	grep "cannot lock ref .HEAD." ../git-err &&
	test_expect_code 128 git rolling advance 2>../err &&
	grep "^fatal: cannot lock ref .HEAD.: Unable to create .$(pwd -P)/.git/HEAD.lock.: File exists\.$" ../err &&
	grep "^remove the file manually to continue\.$" ../err &&
	test_path_is_file .git/HEAD.lock &&
	test_path_is_missing head-lock-file &&
	state ../after &&
	test_cmp ../before ../after &&
	test_cmp ../head-log .git/logs/HEAD &&
	rm .git/HEAD.lock &&
	git rolling advance -q &&
	consistent $tag
'

test_expect_success REFFILES 'a lock of the HEAD reflog is not ours to remove' '
	cd tree &&
	tag=$(add_release "echo log-lock >log-lock-file") &&
	echo "another writer" >.git/logs/HEAD.lock &&
	git rolling advance -q &&
	consistent $tag &&
	echo "another writer" >expect &&
	test_cmp expect .git/logs/HEAD.lock &&
	rm expect .git/logs/HEAD.lock
'

# The seam runs just before the branch lock is renamed into place (the
# second file it sees: the lock'"'"'s creation, its rename), when the
# lines for the branch'"'"'s reflog and HEAD'"'"'s are written: git appends
# them, and so does advance, so a line another writer appended to HEAD'"'"'s
# reflog before that moment stays, and HEAD is locked for it, as git locks it.
test_expect_success REFFILES 'HEAD is locked while its reflog line is written; no other line is lost' '
	cd tree &&
	tag=$(add_release "echo appended >appended-file") &&
	line="$(git rev-parse HEAD) $(git rev-parse HEAD) Other <other@example.com> 1700000000 +0000	another writer" &&
	env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_NTH=2 \
		GIT_ROLLING_TEST_BEFORE_UPDATE="cp .git/HEAD.lock ../head-lock-then &&
			printf \"%s\\n\" \"$line\" >>.git/logs/HEAD" git rolling advance -q &&
	consistent $tag &&
	echo "ref: refs/heads/linux-rolling-stable" >../expect &&
	test_cmp ../expect ../head-lock-then &&
	test_path_is_missing .git/HEAD.lock &&
	grep "	another writer$" .git/logs/HEAD >../found &&
	test_line_count = 1 ../found &&
	grep "^[0-9a-f]* $(git rev-parse HEAD) .*	rolling: merge $tag$" .git/logs/HEAD >../found &&
	test_line_count = 1 ../found
'

# kill_advance_at K: a copy of the work tree (killed) advances, killed
# with kill -9 just before the Kth file it (or a git it runs) creates,
# appends to or renames in its git directory: objects, the intent file,
# the index lock, the branch'"'"'s lock, HEAD.lock, the journal, the
# reflogs, the renames.  Its exit status goes to $status.
kill_advance_at () {
	rm -rf killed &&
	cp -a tree-pristine killed &&
	{
		(
			cd killed &&
			env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/killed/.git/*" \
				GIT_ROLLING_TEST_SEAM_NTH=$1 \
				GIT_ROLLING_TEST_BEFORE_UPDATE="$(test_kill_group_command)" \
				setsid -w git rolling advance -q 2>../kill.err
		)
		status=$?
	} &&
	test_wait_group_gone
}

# finished TAG: the next advance left the branch, index and files at the
# merge of TAG, the branch'"'"'s reflog and HEAD'"'"'s ending at it, with no line
# of a move that was not made, and nothing behind.
finished () {
	(
		cd killed &&
		consistent $1 &&
		tip=$(git rev-parse HEAD) &&
		test "$(tail -n 1 .git/logs/refs/heads/linux-rolling-stable | cut -d" " -f2)" = $tip &&
		test "$(tail -n 1 .git/logs/HEAD | cut -d" " -f2)" = $tip &&
		grep -c "^[0-9a-f]* $tip " .git/logs/HEAD >../moves &&
		echo 1 >../one &&
		test_cmp ../one ../moves &&
		find .git -name "*.lock" -o -name "rolling-ref-tx.*" -o -name "ROLLING_ADVANCE*" >../left &&
		test_must_be_empty ../left &&
		git fsck --no-progress
	)
}

test_expect_success REFFILES "killed at $TEST_POINTS file it writes: the next advance finishes it" '
	(
		cd tree &&
		add_release "echo killed-loop >killed-loop-file" >../tag
	) &&
	rm -rf tree-pristine && cp -a tree tree-pristine &&
	tag=$(cat tag) &&
	k=1 &&
	while kill_advance_at $k && test $status = 137
	do
		echo "killed at $k" >>kills &&
		(cd killed && git rolling advance -q 2>../next.err) &&
		finished $tag || { echo "not finished after a kill at $k" && cat kill.err next.err && return 1; }
		k=$((k + TEST_POINT_STEP))
	done &&
	test $status = 0 &&
	finished $tag &&
	test_line_count -ge $((8 / TEST_POINT_STEP)) kills
'

# A file size limit makes writes fail with EFBIG (SIGXFSZ ignored), as a
# full disk makes them fail with ENOSPC; messages and the exit status
# travel through a pipe, which has no limit.
test_expect_success 'a write failing midway puts back every file written' '
	cd tree &&
	tag=$(add_release "echo changed >README && head -c 200000 /dev/zero | tr \"\\\\0\" x >zz-big") &&
	state ../before &&
	(
		trap "" XFSZ &&
		ulimit -f 40 &&
		git rolling advance
		echo "exit status $?" >&2
	) 2>&1 | cat >../err &&
	grep "^exit status 128$" ../err &&
	grep -E "^fatal: cannot update the work tree of .linux-rolling-stable.: git read-tree (failed|was killed by a signal):$" ../err &&
	grep "^the files it wrote were put back; nothing was changed$" ../err &&
	test_path_is_missing zz-big &&
	state ../after &&
	test_cmp ../before ../after &&
	git rolling advance -q &&
	consistent $tag
'

test_expect_success 'local changes in the way of many files: all listed, however long' '
	cd tree &&
	tag=$(add_release "for i in \$(seq 100); do echo \$i >drivers/a-file-with-a-rather-long-name-\$i.c; done") &&
	for i in $(seq 100)
	do
		echo mine >drivers/a-file-with-a-rather-long-name-$i.c || return 1
	done &&
	state ../before &&
	test_expect_code 128 git rolling advance 2>../err &&
	test $(wc -c <../err) -gt 3000 &&
	grep "^fatal: your local changes to the following files would be overwritten by advancing .linux-rolling-stable.:$" ../err &&
	test $(grep -c "^	drivers/a-file-with-a-rather-long-name-[0-9]*\.c$" ../err) = 100 &&
	tail -n 1 ../err >../last &&
	echo "commit or stash them, then try again; nothing was changed" >../expect &&
	test_cmp ../expect ../last &&
	state ../after &&
	test_cmp ../before ../after &&
	rm drivers/a-file-with-a-rather-long-name-*.c &&
	git rolling advance -q &&
	consistent $tag
'

for state_file in MERGE_HEAD CHERRY_PICK_HEAD REVERT_HEAD rebase-merge rebase-apply BISECT_LOG
do
	test_expect_success "refused while $state_file says an operation is in progress" '
		cd tree &&
		tag=$(add_release "echo $state_file >>README") &&
		case $state_file in
		rebase-*) mkdir .git/$state_file ;;
		*) git rev-parse HEAD >.git/$state_file ;;
		esac &&
		state ../before &&
		test_expect_code 128 git rolling advance 2>../err &&
		grep "^fatal: cannot advance .linux-rolling-stable.: .* is in progress in its work tree ($state_file exists); conclude or abort it first; nothing was changed$" ../err &&
		state ../after &&
		test_cmp ../before ../after &&
		rm -r .git/$state_file &&
		git rolling advance -q &&
		consistent $tag
	'
done

test_expect_success 'unmerged entries in the index are named as such' '
	cd tree &&
	tag=$(add_release "echo more >>README") &&
	blob=$(git rev-parse HEAD:README) &&
	{
		printf "0 0000000000000000000000000000000000000000\tREADME\n" &&
		printf "100644 $blob 1\tREADME\n100644 $blob 2\tREADME\n100644 $blob 3\tREADME\n"
	} | git update-index --index-info &&
	test_expect_code 128 git rolling advance 2>../err &&
	printf "%s\n\t%s\n%s\n" \
		"fatal: cannot advance '"'"'linux-rolling-stable'"'"': the index has unmerged entries:" \
		README "resolve them first; nothing was changed" >../expect &&
	test_cmp ../expect ../err &&
	git reset -q --hard &&
	git rolling advance -q &&
	consistent $tag
'

test_expect_success 'the branch moved just before the checkout: said so, nothing changed' '
	cd tree &&
	tag=$(add_release "echo moved >>README") &&
	before=$(git rev-parse HEAD) &&
	other=$(git rev-parse v6.2.1^{commit}) &&
	git ls-files -s >../index.before &&
	test_expect_code 128 env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/.git/index.lock" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="git update-ref refs/heads/linux-rolling-stable $other" \
		git rolling advance 2>../err &&
	grep "^fatal: refs/heads/linux-rolling-stable was changed by another process (it is now at $(git rev-parse --short $other)); nothing was changed$" ../err &&
	git ls-files -s >../index.after &&
	test_cmp ../index.before ../index.after &&
	git update-ref refs/heads/linux-rolling-stable $before &&
	git diff --quiet HEAD &&
	git rolling advance -q &&
	consistent $tag
'

test_expect_success 'losing the race after the files were written puts them back' '
	cd tree &&
	tag=$(add_release "echo raced >>README && echo added >raced-file") &&
	before=$(git rev-parse HEAD) &&
	other=$(git rev-parse v6.2.1^{commit}) &&
	git ls-files -s >../index.before &&
	test_expect_code 128 env LD_PRELOAD="$TEST_SEAM" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="git update-ref refs/heads/linux-rolling-stable $other" \
		git rolling advance 2>../err &&
	grep "^fatal: refs/heads/linux-rolling-stable was changed by another process" ../err &&
	test_path_is_missing raced-file &&
	test_path_is_missing .git/index.lock &&
	git ls-files -s >../index.after &&
	test_cmp ../index.before ../index.after &&
	git update-ref refs/heads/linux-rolling-stable $before &&
	git diff --quiet HEAD &&
	git rolling advance -q &&
	consistent $tag
'

test_expect_success 'other git commands and a second advance fail cleanly meanwhile' '
	cd tree &&
	tag=$(add_release "echo concurrent >>README") &&
	cat >../meanwhile <<-\EOF &&
	! git commit -q --allow-empty -m meanwhile 2>../commit.err &&
	grep "index.lock" ../commit.err &&
	! git rolling advance 2>../advance.err &&
	grep "^fatal: another git rolling advance (pid [0-9]* on .*) is updating this work tree" ../advance.err
	EOF
	env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_BEFORE_UPDATE="sh ../meanwhile" \
		git rolling advance -q &&
	consistent $tag
'

# The intent file appears flocked (lib/owner-file.h): a second advance
# that looks while the first is still writing its draft takes nothing
# of it, and the first goes on.
test_expect_success 'a second advance while the first writes its intent: the draft stays' '
	cd tree &&
	tag=$(add_release "echo draft >>README") &&
	cat >../meanwhile <<-\EOF &&
	ls .git/ROLLING_ADVANCE.* >../seen &&
	git rolling advance no-such-branch 2>../second.err
	echo $? >../second.status
	ls .git/ROLLING_ADVANCE.* >../kept
	EOF
	env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/tree/.git/ROLLING_ADVANCE.*" \
		GIT_ROLLING_TEST_SEAM_AFTER=1 GIT_ROLLING_TEST_BEFORE_UPDATE="sh ../meanwhile" \
		git rolling advance -q &&
	test "$(cat ../second.status)" = 128 &&
	grep "no-such-branch" ../second.err &&
	grep "^.git/ROLLING_ADVANCE\.draft-[0-9a-f]*$" ../seen &&
	test_cmp ../seen ../kept &&
	consistent $tag
'

test_expect_success 'killed after writing the files: the next advance finishes' '
	cd tree &&
	tag=$(add_release "echo killed >>README && echo new >killed-file") &&
	test_expect_code 137 env LD_PRELOAD="$TEST_SEAM" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$GIT_ROLLING_PID \$PPID" git rolling advance -q &&
	test_path_is_file .git/ROLLING_ADVANCE &&
	test_path_is_file .git/index.lock &&
	git rolling advance -q &&
	consistent $tag &&
	test_path_is_file killed-file
'

# The reflog file is the files backend's: in reftable git writes the
# reflog with the ref, in one table (t8040 kills advance there).
test_expect_success REFFILES 'killed while writing the reflog of the moved branch: finished' '
	cd tree &&
	tag=$(add_release "echo reflog >>README") &&
	test_expect_code 137 env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/logs/refs/heads/*" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$GIT_ROLLING_PID \$PPID" git rolling advance -q &&
	test_path_is_file .git/ROLLING_ADVANCE &&
	git rolling advance -q &&
	consistent $tag
'

# The two moves of a series switch are one ref update: the branch jumps
# to the second tip, and its reflog gets a line for each move.
test_expect_success 'setup: a checked-out branch with a series switch ahead' '
	stable_tree_linux switch &&
	stable_tree_replay switch $(($(stable_tree_week_of switch v6.3.1) + 1)) &&
	git -C switch rolling init -q --at v6.2.1 linux-rolling-stable &&
	git -C switch checkout -q linux-rolling-stable
'

# Between the two moves of a series switch: in reftable both go through
# one git transaction, with no moment between them.
# Killed at the rename of the branch lock (the second file the seam
# sees: its creation, then its rename), after the reflog lines of both
# moves were appended, as git appends them before its rename too: the
# next advance cuts those lines, which record moves that did not happen,
# from the branch'"'"'s reflog and HEAD'"'"'s, and moves it with new ones.
test_expect_success REFFILES 'a series switch killed before its branch moves: the next advance does both' '
	(
		cd switch &&
		start=$(git rev-parse HEAD) &&
		git rolling advance --porcelain --dry-run >../plan &&
		test_line_count = 2 ../plan &&
		cp .git/logs/HEAD ../head-log-before &&
		test_expect_code 137 env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_NTH=2 \
			GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$GIT_ROLLING_PID \$PPID" git rolling advance -q &&
		test "$(git rev-parse linux-rolling-stable)" = $start &&
		test_path_is_file .git/refs/heads/linux-rolling-stable.lock &&
		test_path_is_file .git/HEAD.lock &&
		sed -n "2s/^step [^ ]* [^ ]* [^ ]* \([0-9a-f]*\) .*/\1/p" ../plan >../expect &&
		tail -n 1 .git/logs/refs/heads/linux-rolling-stable | cut -d" " -f2 >../top &&
		test_cmp ../expect ../top &&
		echo $start >../expect &&
		git rolling advance -q &&
		test_path_is_missing .git/HEAD.lock &&
		head -n $(wc -l <../head-log-before) .git/logs/HEAD >../head-log-kept &&
		test_cmp ../head-log-before ../head-log-kept &&
		test $(wc -l <.git/logs/HEAD) = $(($(wc -l <../head-log-before) + 2)) &&
		consistent $(sed -n "2s/^step [^ ]* [^ ]* \([^ ]*\) .*/\1/p" ../plan) &&
		git reflog show --format="%H %gs" -3 linux-rolling-stable >../reflog &&
		sed -n "3s/ .*//p" ../reflog >../was &&
		test_cmp ../expect ../was &&
		sed -n "2s/ .*//p" ../reflog >../mid &&
		sed -n "1s/^step [^ ]* [^ ]* [^ ]* \([0-9a-f]*\) .*/\1/p" ../plan >../expect-mid &&
		test_cmp ../expect-mid ../mid &&
		test "$(git rev-parse linux-rolling-stable^1)" = "$(cat ../mid)"
	)
'

test_expect_success 'killed with the branch at its new tip: finished although nothing is left to plan' '
	(
		cd switch &&
		git rolling advance -q &&
		git reset -q --hard HEAD~1 &&
		git reset -q --hard HEAD~1 &&
		git rolling advance --porcelain --dry-run >../plan &&
		last=$(sed -n "2s/^step [^ ]* [^ ]* [^ ]* \([0-9a-f]*\) .*/\1/p" ../plan) &&
		test_expect_code 137 env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/.git/index.lock" \
			GIT_ROLLING_TEST_SEAM_NTH=2 \
			GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$GIT_ROLLING_PID \$PPID" git rolling advance -q &&
		test "$(git rev-parse HEAD)" = $last &&
		test_path_is_file .git/ROLLING_ADVANCE &&
		git rolling advance -q >../out &&
		test_must_be_empty ../out &&
		consistent $(sed -n "2s/^step [^ ]* [^ ]* \([^ ]*\) .*/\1/p" ../plan)
	)
'

# An intent whose branch stopped between its moves (an older git rolling
# moved a branch one move at a time): the moves left go through the one
# ref transaction, a reflog line each.
test_expect_success 'the branch stopped between two moves: the rest is moved, a reflog line each' '
	(
		cd switch &&
		final=$(git rev-parse HEAD) && mid=$(git rev-parse HEAD^1) &&
		start=$(git rev-parse HEAD^1^1) &&
		tag=$(git log -1 --format=%s HEAD | sed -n "s/^Merge //p") &&
		git update-ref -m "test: back to the first move" refs/heads/linux-rolling-stable $mid $final &&
		cp .git/index ../final-index &&
		git read-tree $start &&
		mv ../final-index .git/index.lock &&
		printf "%s\n%s\n%s\n%s\nindex %s\n%s\n%s\n" "999999 gone-host" \
			refs/heads/linux-rolling-stable $start "index.lock taken" "$(pwd)/.git/index" \
			"$mid rolling: merge first" "$final rolling: merge $tag" >.git/ROLLING_ADVANCE &&
		git rolling advance -q &&
		consistent $tag &&
		git reflog show --format="%H %gs" -2 linux-rolling-stable >../reflog &&
		printf "%s rolling: merge %s\n%s test: back to the first move\n" $final $tag $mid >../expect &&
		test_cmp ../expect ../reflog
	)
'

test_expect_success 'killed before taking the index lock: nothing to undo' '
	cd tree &&
	tag=$(add_release "echo early >>README") &&
	state ../before &&
	test_expect_code 137 env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/.git/index.lock" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$GIT_ROLLING_PID \$PPID" git rolling advance -q &&
	test_path_is_file .git/ROLLING_ADVANCE &&
	test_path_is_missing .git/index.lock &&
	state ../after &&
	test_cmp ../before ../after &&
	git rolling advance -q &&
	consistent $tag
'

test_expect_success 'an earlier run that may be alive: refused, naming it and what to do' '
	cd tree &&
	tag=$(add_release "echo alive >>README") &&
	state ../before &&
	printf "4242 otherhost\nrefs/heads/linux-rolling-stable\n%s\n%s rolling: merge x\n" \
		$(git rev-parse HEAD) $(git rev-parse HEAD) >.git/ROLLING_ADVANCE &&
	hold_lock .git/ROLLING_ADVANCE &&
	test_expect_code 128 git rolling advance 2>../err &&
	release_lock &&
	grep "^fatal: another git rolling advance (pid 4242 on otherhost) is updating this work tree (it holds .*ROLLING_ADVANCE.); wait for it to finish; if it hangs, end it (.kill 4242. on otherhost) and run git rolling advance again$" ../err &&
	state ../after &&
	test_cmp ../before ../after &&
	git rolling advance -q &&
	consistent $tag
'

test_expect_success 'a branch checked out in a locked work tree whose directory is gone' '
	cd tree &&
	git rolling init -q --at v6.1.1 away &&
	git worktree add -q ../away away &&
	git worktree lock --reason "on a removable disk" ../away &&
	rm -rf ../away &&
	git rev-parse away >../away.before &&
	test_expect_code 128 git rolling advance away 2>../err &&
	grep "^fatal: .away. is checked out in another work tree; not moving it$" ../err &&
	git rev-parse away >../away.after &&
	test_cmp ../away.before ../away.after
'

test_expect_success 'from a linked work tree, the branch of the main one is left alone' '
	cd tree &&
	git worktree add -q --detach ../linked &&
	tag=$(add_release "echo linked >>README") &&
	git rev-parse linux-rolling-stable >../main.before &&
	test_expect_code 128 git -C ../linked rolling advance linux-rolling-stable 2>../err &&
	grep "^fatal: .linux-rolling-stable. is checked out in another work tree; not moving it$" ../err &&
	git rev-parse linux-rolling-stable >../main.after &&
	test_cmp ../main.before ../main.after &&
	git worktree remove ../linked &&
	git rolling advance -q linux-rolling-stable &&
	consistent $tag
'

test_expect_success 'a branch being rebased in another work tree is left alone' '
	cd tree &&
	git rolling init -q --at v6.1.1 rebasing &&
	git worktree add -q --detach ../rebasing &&
	wtdir=$(git -C ../rebasing rev-parse --absolute-git-dir) &&
	mkdir "$wtdir/rebase-merge" &&
	echo refs/heads/rebasing >"$wtdir/rebase-merge/head-name" &&
	test_expect_code 128 git rolling advance rebasing 2>../err &&
	grep "^fatal: .rebasing. is checked out in another work tree; not moving it$" ../err &&
	rm -r "$wtdir/rebase-merge"
'

test_expect_success 'a sparse checkout advances as git merge --ff-only does' '
	cd tree &&
	tag=$(add_release "echo sparse >>README && echo out >drivers/outside.c") &&
	git sparse-checkout set --no-cone "/*" "!/drivers/" &&
	test_path_is_missing drivers &&
	git rolling advance -q linux-rolling-stable &&
	git clone -q --no-checkout . ../oracle &&
	test "$(check_rolling_merge HEAD)" = $tag &&
	test_path_is_missing drivers &&
	(
		cd ../oracle &&
		git checkout -q -b ff $(git -C ../tree rev-parse HEAD^1) &&
		git sparse-checkout set --no-cone "/*" "!/drivers/" &&
		git merge -q --ff-only $(git -C ../tree rev-parse HEAD) &&
		git ls-files -t >../oracle.files
	) &&
	git ls-files -t >../advance.files &&
	test_cmp ../oracle.files ../advance.files &&
	git status --porcelain >../status &&
	test_must_be_empty ../status &&
	git sparse-checkout disable
'

test_done
