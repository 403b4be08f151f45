#!/bin/sh

test_description='every command in a reftable repository

Git 3.0 makes reftable repositories by default, and no libgit2 release
reads one: git rolling reads their refs through git and writes them
through git update-ref --stdin.  Each command runs in twin repositories,
one whose refs are files and one whose refs are reftable, made from the
same tree: what the commands print and what git reads back (for-each-ref,
the reflogs, fsck) must be the same, but where one git transaction
cannot carry what the files backend writes (one reflog message per
transaction, git-rolling-advance(1)).  No loose ref file may appear
beside the table stack.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-small-fs.sh

# git refs migrate (2.46) makes the twin; git 2.45 made reftable, not migrate.
if git init -q --ref-format=reftable probe-reftable 2>/dev/null &&
	test "$(git -C probe-reftable rev-parse --show-ref-format)" = reftable &&
	git -C probe-reftable refs migrate --ref-format=files --dry-run >/dev/null 2>&1
then
	test_set_prereq REFTABLE
else
	skip_all="git $(git version | cut -d" " -f3) makes no reftable repository or cannot migrate one (git 2.46)"
fi
rm -rf probe-reftable

# twin_copy FROM TO FORMAT: a copy of the non-bare repository FROM
# whose refs are in FORMAT.
twin_copy () {
	cp -R "$1" "$2" &&
	if test "$(git -C "$2" rev-parse --show-ref-format)" != "$3"
	then
		git -C "$2" refs migrate --ref-format="$3"
	fi &&
	test "$(git -C "$2" rev-parse --show-ref-format)" = "$3"
}

# twin_do COMMAND...: run COMMAND in files/ and rt/ (or $twin_a and
# $twin_b), each with its output and exit status in ../<twin>.out; the
# two must be the same.
twin_do () {
	for tw_dir in "${twin_a:-files}" "${twin_b:-rt}"
	do
		(cd "$tw_dir" && "$@" >"../$tw_dir.out" 2>&1; echo "exit $?" >>"../$tw_dir.out")
	done &&
	test_cmp "${twin_a:-files}.out" "${twin_b:-rt}.out"
}

# What git reads back of every ref: name, object, peeled object, symref target.
refs_of () {
	git -C "$1" for-each-ref --format="%(refname) %(objectname) %(*objectname) %(symref)"
}

# reflog_of DIR REF: the ids and messages of REF's reflog, newest first.
reflog_of () {
	git -C "$1" reflog show --format="%H %gs" "$2" --
}

# joined_lines REF COUNT [DIR]: the reflog line the reftable twin writes
# for the COUNT newest lines of REF's reflog in DIR (files/): the newest
# id, and the messages oldest first, "rolling: " once
# (refs.h).
joined_lines () {
	reflog_of "${3:-files}" "$1" | head -n "$2" |
	awk 'NR == 1 { tip = $1 }
	     { sub(/^[0-9a-f]* rolling: /, ""); m[NR] = $0 }
	     END { s = ""; for (i = NR; i >= 1; i--) s = s (i < NR ? ", " : "") m[i]
		   print tip " rolling: " s }'
}

# twin_advance BRANCH: advance BRANCH in both twins; add to expect.BRANCH
# and expect.HEAD (oldest first) what the reftable twin's reflogs gain.
twin_advance () {
	ta_before=$(reflog_of files "$1" | wc -l) &&
	ta_head=$(reflog_of files HEAD | wc -l) &&
	twin_do git rolling advance "$1" &&
	ta_new=$(($(reflog_of files "$1" | wc -l) - ta_before)) &&
	if test $ta_new -gt 0
	then
		joined_lines "$1" $ta_new >>"expect.$1" &&
		if test $(($(reflog_of files HEAD | wc -l) - ta_head)) -gt 0
		then
			joined_lines "$1" $ta_new >>expect.HEAD
		fi
	fi
}

# reftable_log_ok DIR REF LINES: the reftable twin's reflog of REF: its
# LINES oldest lines as the files twin's, then the lines of expect.REF.
reftable_log_ok () {
	{
		sed -n "1!G;h;\$p" "expect.$2" &&
		reflog_of files "$2" | tail -n "$3"
	} >expect &&
	reflog_of rt "$2" >actual &&
	test_cmp expect actual
}

# Nothing of the files backend beside the stack: the stub git writes, no more.
no_loose_refs () {
	(cd "$1" && gd=$(git rev-parse --git-common-dir) &&
	 find "$gd/refs" -type f >../loose.actual &&
	 echo "$gd/refs/heads" >../loose.expect &&
	 test_cmp ../loose.expect ../loose.actual &&
	 test_path_is_missing "$gd/packed-refs" &&
	 ! test -d "$gd/logs/refs")
}

test_expect_success REFTABLE 'setup: a stable tree and its reftable twin' '
	# git refs migrate moves reflogs from 2.48 on (2.46 and 2.47 refuse
	# a repository that has any): both twins start from a files tree
	# without reflogs, whatever format git makes by default.
	STABLE_REF_FORMAT=files stable_tree_linux tree &&
	stable_tree_replay tree 40 &&
	rm -rf tree/.git/logs &&
	twin_copy tree files files &&
	twin_copy tree rt reftable &&
	refs_of files >files.refs && refs_of rt >rt.refs &&
	test_cmp files.refs rt.refs
'

test_expect_success REFTABLE 'init, status and advance --dry-run print the same in both' '
	twin_do git rolling init linux-rolling-stable &&
	twin_do git rolling init --lts --each linux-rolling-lts &&
	twin_do git rolling init --at v6.2.1 -q elsewhere &&
	twin_do git rolling status &&
	twin_do git rolling advance --dry-run --porcelain &&
	refs_of files >files.refs && refs_of rt >rt.refs &&
	test_cmp files.refs rt.refs &&
	reflog_of files linux-rolling-stable >files.log &&
	reflog_of rt linux-rolling-stable >rt.log &&
	test_cmp files.log rt.log &&
	test_line_count = 1 rt.log &&
	no_loose_refs rt
'

test_expect_success REFTABLE 'a branch that exists already: init refuses, -f replaces' '
	twin_do test_expect_code 128 git rolling init --at v6.2.1 elsewhere &&
	grep "^fatal: .*elsewhere" rt.out &&
	twin_do git rolling init -f -q --at v6.2.2 elsewhere &&
	grep "^exit 0$" rt.out &&
	test "$(git -C rt rev-parse elsewhere)" = "$(git -C rt rev-parse v6.2.2^{commit})" &&
	reflog_of files elsewhere >files.log && reflog_of rt elsewhere >rt.log &&
	test_cmp files.log rt.log
'

test_expect_success REFTABLE 'advance a checked-out branch week by week, across a series switch' '
	git -C files checkout -q linux-rolling-stable &&
	git -C rt checkout -q linux-rolling-stable &&
	log_lines=$(reflog_of files linux-rolling-stable | wc -l) &&
	head_lines=$(reflog_of files HEAD | wc -l) &&
	: >expect.linux-rolling-stable && : >expect.HEAD &&
	week=40 &&
	while test $week -lt 60
	do
		week=$((week + 1)) &&
		stable_tree_replay files $week &&
		stable_tree_replay rt $week &&
		twin_advance linux-rolling-stable || return 1
	done &&
	git -C rt rolling log linux-rolling-stable >log &&
	grep "series .* -> .*, includes the .* merge window" log &&
	for twin in files rt
	do
		(cd $twin && git status --porcelain >../status &&
		 test_must_be_empty ../status &&
		 git diff --quiet HEAD && git diff --cached --quiet HEAD) || return 1
	done &&
	refs_of files >files.refs && refs_of rt >rt.refs &&
	test_cmp files.refs rt.refs &&
	test_line_count -gt 10 expect.linux-rolling-stable &&
	reftable_log_ok rt linux-rolling-stable $log_lines &&
	reftable_log_ok rt HEAD $head_lines &&
	grep ", merge v" expect.HEAD &&
	no_loose_refs rt
'

test_expect_success REFTABLE 'advance of many steps at once: one git transaction, one reflog line' '
	log_lines=$(reflog_of files linux-rolling-lts | wc -l) &&
	: >expect.linux-rolling-lts &&
	twin_advance linux-rolling-lts &&
	refs_of files >files.refs && refs_of rt >rt.refs &&
	test_cmp files.refs rt.refs &&
	test $(($(reflog_of files linux-rolling-lts | wc -l) - log_lines)) -gt 3 &&
	reftable_log_ok rt linux-rolling-lts $log_lines
'

# The seam in the git update-ref that advance runs kills advance itself
# (the git's parent) as git takes the lock of the stack: git goes on,
# and commits unless its answer to the dead advance kills it first; the
# work tree and index are left half done, the branch moved or not, and
# the next advance must finish them either way.
test_expect_success REFTABLE 'killed while git moves the checked-out branch: the next advance finishes' '
	cp -R rt rt-kill && cp -R files files-kill &&
	stable_tree_replay rt-kill 61 && stable_tree_replay files-kill 61 &&
	git -C files-kill rolling advance -q linux-rolling-stable &&
	want=$(git -C files-kill rev-parse HEAD) &&
	was=$(git -C rt-kill rev-parse HEAD) &&
	test "$want" != "$was" &&
	(cd rt-kill &&
	 test_expect_code 137 env LD_PRELOAD="$TEST_SEAM" \
		GIT_ROLLING_TEST_SEAM_PATH="*/reftable/tables.list.lock" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$(ps -o ppid= -p \$PPID)" \
		git-rolling-advance -q linux-rolling-stable &&
	 test_path_is_file .git/ROLLING_ADVANCE &&
	 i=0 &&
	 while test -e .git/reftable/tables.list.lock && test $i -lt 100
	 do
		sleep 0.1 && i=$((i + 1))
	 done &&
	 # git answers "prepare: ok" to the dying git rolling: it dies of
	 # SIGPIPE and commits nothing, or, the pipe still open, commits
	 case $(git rev-parse refs/heads/linux-rolling-stable) in
	 "$was"|"$want") ;;
	 *) false ;;
	 esac &&
	 git rolling advance -q linux-rolling-stable &&
	 test_path_is_missing .git/ROLLING_ADVANCE &&
	 test_path_is_missing .git/index.lock &&
	 test "$(git rev-parse HEAD)" = "$want" &&
	 git status --porcelain >../status &&
	 test_must_be_empty ../status &&
	 git diff --quiet HEAD && git diff --cached --quiet HEAD) &&
	no_loose_refs rt-kill
'

# git update-ref killed once its new table is in place (just after the
# rename of tables.list.lock, the seam's second event at that name):
# the branch moved, as git's "prepare: ok" and the ref read back say.
# Taken for a race lost to another process, the files and the index
# would be put back under the moved branch, and the next advance would
# find nothing to do.
test_expect_success REFTABLE 'git update-ref killed after its table is in place: the advance completes' '
	cp -R rt rt-sig && cp -R files files-sig &&
	stable_tree_replay rt-sig 61 && stable_tree_replay files-sig 61 &&
	git -C files-sig rolling advance -q linux-rolling-stable &&
	want=$(git -C files-sig rev-parse HEAD) &&
	(cd rt-sig &&
	 env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/reftable/tables.list.lock" \
		GIT_ROLLING_TEST_SEAM_NTH=2 GIT_ROLLING_TEST_SEAM_AFTER=1 \
		GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$PPID" \
		git-rolling-advance -q linux-rolling-stable 2>../sig.err &&
	 grep "^warning: the refs were written, then git update-ref died of signal 9$" ../sig.err &&
	 test "$(git rev-parse HEAD)" = "$want" &&
	 test_path_is_missing .git/ROLLING_ADVANCE &&
	 test_path_is_missing .git/index.lock &&
	 git status --porcelain >../status &&
	 test_must_be_empty ../status &&
	 git diff --quiet HEAD && git diff --cached --quiet HEAD)
'

test_expect_success REFTABLE 'linked work trees: a branch checked out in another is refused, its own advances' '
	for twin in files rt
	do
		git -C $twin worktree add -q ../$twin-wt elsewhere || return 1
	done &&
	stable_tree_replay files 62 && stable_tree_replay rt 62 &&
	twin_do test_expect_code 128 git rolling advance elsewhere &&
	grep "^fatal: .elsewhere. is checked out in another work tree; not moving it$" rt.out &&
	(twin_a=files-wt twin_b=rt-wt &&
	 twin_do git rolling advance elsewhere &&
	 grep "^exit 0$" rt-wt.out) &&
	test "$(git -C rt-wt rev-parse HEAD)" = "$(git -C files-wt rev-parse HEAD)" &&
	test "$(git -C rt-wt symbolic-ref HEAD)" = refs/heads/elsewhere &&
	git -C rt-wt status --porcelain >status &&
	test_must_be_empty status &&
	# Its HEAD reflog: the series switch in one line, the rest the same.
	steps=$(($(reflog_of files-wt HEAD | wc -l) - $(reflog_of rt-wt HEAD | wc -l) + 1)) &&
	test $steps = 2 &&
	{ joined_lines HEAD $steps files-wt && reflog_of files-wt HEAD | tail -n +$((steps + 1)); } >expect &&
	reflog_of rt-wt HEAD >actual &&
	test_cmp expect actual &&
	no_loose_refs rt-wt
'

test_expect_success REFTABLE 'verify, log, describe print the same' '
	twin_do git rolling verify &&
	twin_do git rolling verify --json linux-rolling-stable linux-rolling-lts &&
	twin_do git rolling verify --since linux-rolling-stable~3 linux-rolling-stable &&
	twin_do git rolling verify --rebuild linux-rolling-lts &&
	twin_do git rolling log linux-rolling-stable &&
	twin_do git rolling log --oneline linux-rolling-lts &&
	fix=$(git -C rt rev-list -n 1 linux-rolling-stable^2~1) &&
	twin_do git rolling describe -b linux-rolling-stable "$fix" &&
	twin_do git rolling status
'

test_expect_success REFTABLE 'backfill and adopt print and write the same' '
	twin_do git rolling init --backfill --no-progress --lts -q --at v6.1.3 backfilled &&
	grep "^exit 0$" rt.out &&
	git -C files branch -q adoptme linux-rolling-stable~2 &&
	git -C rt branch -q adoptme linux-rolling-stable~2 &&
	twin_do git rolling init --adopt adoptme &&
	grep "^exit 0$" rt.out &&
	twin_do git rolling advance -q adoptme &&
	refs_of files >files.refs && refs_of rt >rt.refs &&
	test_cmp files.refs rt.refs &&
	reflog_of files backfilled >files.log && reflog_of rt backfilled >rt.log &&
	test_cmp files.log rt.log &&
	no_loose_refs rt
'

test_expect_success REFTABLE 'bisect-helper across the rolling steps' '
	culprit=$(git -C rt rev-list -n 1 linux-rolling-stable~4^2~1) &&
	cat >culprit-test <<-EOF &&
	#!/bin/sh
	! git merge-base --is-ancestor $culprit HEAD
	EOF
	chmod +x culprit-test &&
	twin_do git rolling bisect-helper steps -b linux-rolling-stable &&
	twin_do git rolling bisect-helper start -b linux-rolling-stable linux-rolling-stable linux-rolling-stable~8 &&
	grep "^exit 0$" rt.out &&
	twin_do git rolling bisect-helper run "$TRASH_DIRECTORY/culprit-test" &&
	grep "^first bad commit: $culprit " rt.out &&
	for twin in files rt
	do
		git -C $twin bisect log | grep "^#" >$twin.bisect || return 1
	done &&
	test_cmp files.bisect rt.bisect &&
	twin_do git rolling bisect-helper reset &&
	test_path_is_missing rt/.git/BISECT_START &&
	no_loose_refs rt
'

test_expect_success REFTABLE 'bare servers: init and advance there, with git --git-dir' '
	git clone -q --bare --ref-format=files tree files.git &&
	git clone -q --bare --ref-format=reftable tree rt.git &&
	test "$(git --git-dir=rt.git rev-parse --show-ref-format)" = reftable &&
	(twin_a=files.git twin_b=rt.git &&
	 twin_do git --git-dir=. rolling init -q linux-rolling-stable &&
	 grep "^exit 0$" rt.git.out &&
	 stable_tree_replay tree 45 &&
	 for server in files.git rt.git
	 do
		git --git-dir=$server fetch -q "$TRASH_DIRECTORY/tree" "+refs/tags/*:refs/tags/*" || return 1
	 done &&
	 twin_do git --git-dir=. rolling advance &&
	 grep "^exit 0$" rt.git.out &&
	 twin_do git --git-dir=. rolling verify linux-rolling-stable &&
	 grep "verified" rt.git.out) &&
	git --git-dir=files.git for-each-ref --format="%(refname) %(objectname) %(*objectname)" >files.refs &&
	git --git-dir=rt.git for-each-ref --format="%(refname) %(objectname) %(*objectname)" >rt.refs &&
	test_cmp files.refs rt.refs &&
	(cd rt.git && test "$(find refs -type f)" = refs/heads && test_path_is_missing packed-refs)
'

test_expect_success REFTABLE 'a reftable consumer fetches and pulls from a reftable server' '
	for twin in files rt
	do
		git clone -q --ref-format=$(git --git-dir=$twin.git rev-parse --show-ref-format) \
			-b linux-rolling-stable "file://$TRASH_DIRECTORY/$twin.git" $twin-consumer &&
		git -C $twin-consumer rolling init -q --follow origin/linux-rolling-stable || return 1
	done &&
	test "$(git -C rt-consumer rev-parse --show-ref-format)" = reftable &&
	(twin_a=files-consumer twin_b=rt-consumer &&
	 twin_do git rolling fetch origin &&
	 grep "verified for the first time" rt-consumer.out &&
	 stable_tree_replay tree 48 &&
	 for server in files.git rt.git
	 do
		git --git-dir=$server fetch -q "$TRASH_DIRECTORY/tree" "+refs/tags/*:refs/tags/*" &&
		git --git-dir=$server rolling advance -q || return 1
	 done &&
	 twin_do git rolling fetch origin &&
	 grep "^origin/linux-rolling-stable: updated" rt-consumer.out &&
	 stable_tree_replay tree 50 &&
	 for server in files.git rt.git
	 do
		git --git-dir=$server fetch -q "$TRASH_DIRECTORY/tree" "+refs/tags/*:refs/tags/*" &&
		git --git-dir=$server rolling advance -q || return 1
	 done &&
	 twin_do git rolling pull &&
	 grep "^Fast-forward$" rt-consumer.out) &&
	refs_of files-consumer >files.refs && refs_of rt-consumer >rt.refs &&
	test_cmp files.refs rt.refs &&
	test "$(git -C rt-consumer rev-parse HEAD)" = "$(git --git-dir=rt.git rev-parse linux-rolling-stable)" &&
	git -C rt-consumer status --porcelain >status &&
	test_must_be_empty status &&
	# The same moves; a message a fetch, the tags it added named in it.
	for twin in files rt
	do
		git -C $twin-consumer reflog show --format=%H refs/rolling/verified/origin/linux-rolling-stable >$twin.ids || return 1
	done &&
	test_cmp files.ids rt.ids &&
	git -C rt-consumer reflog show --format=%gs refs/rolling/verified/origin/linux-rolling-stable >msgs &&
	test_line_count = 3 msgs &&
	! grep -v "^rolling fetch origin: verified v[0-9.]*\(, release tag\)\{0,1\}$" msgs &&
	git -C rt-consumer reflog show --format=%gs -1 linux-rolling-stable >actual &&
	echo "rolling pull: Fast-forward" >expect &&
	test_cmp expect actual &&
	no_loose_refs rt-consumer &&
	git -C rt-consumer fsck --no-progress --no-dangling
'

test_expect_success REFTABLE 'signed releases: advance embeds them, verify --signatures checks them' '
	STABLE_REF_FORMAT=files STABLE_SIGNED_TAGS=1 STABLE_MAINLINE="5.19 6.0 6.1" \
		stable_tree_linux signed &&
	stable_tree_replay signed 20 &&
	rm -rf signed/.git/logs &&
	twin_copy signed files-signed files &&
	twin_copy signed rt-signed reftable &&
	(twin_a=files-signed twin_b=rt-signed &&
	 twin_do git rolling init -q --at v6.0.2 linux-rolling-stable &&
	 stable_tree_replay files-signed 24 && stable_tree_replay rt-signed 24 &&
	 twin_do git rolling advance linux-rolling-stable &&
	 twin_do git rolling verify --signatures linux-rolling-stable &&
	 grep "^exit 0$" rt-signed.out) &&
	git -C rt-signed cat-file commit linux-rolling-stable >raw &&
	grep "^mergetag object " raw &&
	test "$(git -C rt-signed rev-parse linux-rolling-stable)" = "$(git -C files-signed rev-parse linux-rolling-stable)"
'

test_expect_success REFTABLE 'git fsck finds the reftable twin whole, as the files one' '
	twin_do git fsck --no-progress --no-dangling &&
	echo "exit 0" >expect &&
	test_cmp expect rt.out &&
	twin_do git fsck --no-progress
'

test_expect_success REFTABLE 'a compare-and-swap lost to another git: nothing written' '
	git -C rt checkout -q --detach &&
	stable_tree_replay rt 61 &&
	before=$(git -C rt rev-parse linux-rolling-stable) &&
	other=$(git -C rt rev-parse linux-rolling-stable~1) &&
	(
		cd rt &&
		GIT_ROLLING_TEST_SEAM_PATH="*/reftable/tables.list.lock" &&
		GIT_ROLLING_TEST_BEFORE_UPDATE="git update-ref refs/heads/linux-rolling-stable $other" &&
		export GIT_ROLLING_TEST_SEAM_PATH GIT_ROLLING_TEST_BEFORE_UPDATE &&
		LD_PRELOAD=$TEST_SEAM test_expect_code 128 git rolling advance linux-rolling-stable 2>../err
	) &&
	grep "changed by another process" err &&
	test "$(git -C rt rev-parse linux-rolling-stable)" = "$other" &&
	git -C rt update-ref refs/heads/linux-rolling-stable "$before" "$other" &&
	no_loose_refs rt
'

# full_disk_sweep REPO STRIDE MAX GIT-ARGS...: run git GIT-ARGS in a copy
# of REPO on the small file system filled to leave 0, STRIDE, 2 STRIDE,
# ... pages (below MAX) until it succeeds.  Every failure names the full
# disk and changes no ref and no table, and leaves no lock; there was at
# least one, and the success warns of nothing but git's compaction after
# the new table was in (the refs are written then).  The copy that
# succeeded is $SMALL/repo.
full_disk_sweep () {
	fds_from=$1 fds_stride=$2 fds_max=$3 &&
	shift 3 &&
	refs_of "$fds_from" >refs.before &&
	(cd "$fds_from/.git/reftable" && ls) >tables.before &&
	fds_units=0 fds_failed=0 &&
	while test $fds_units -lt $fds_max
	do
		rm -rf "$SMALL/repo" &&
		cp -a "$fds_from" "$SMALL/repo" &&
		small_fs_leave $((fds_units * small_fs_page)) &&
		if git -C "$SMALL/repo" "$@" 2>err
		then
			small_fs_unfill &&
			break
		fi &&
		small_fs_unfill &&
		fds_failed=$((fds_failed + 1)) &&
		{ grep -i "no space left on device\\|out of diskspace" err || { cat err; false; }; } &&
		refs_of "$SMALL/repo" >refs.after &&
		test_cmp refs.before refs.after &&
		(cd "$SMALL/repo/.git/reftable" && ls) >tables.after &&
		test_cmp tables.before tables.after &&
		test_path_is_missing "$SMALL/repo/.git/reftable/tables.list.lock" &&
		fds_units=$((fds_units + fds_stride)) || return 1
	done &&
	test $fds_failed -gt 0 &&
	echo "$fds_failed failures before git $* went through" &&
	! grep -v "^warning: the refs were written, then git update-ref failed: " err
}

# Each run on a copy of the twin on a small tmpfs filled to leave 0, 1,
# 2, ... pages, until it succeeds: every failure changes no ref and
# leaves no table or lock behind.
test_expect_success REFTABLE,SMALL_FS 'a full disk: advance writes all or nothing' '
	stable_tree_replay files 62 &&
	stable_tree_replay rt 62 &&
	git -C files rolling advance -q linux-rolling-stable &&
	want=$(git -C files rev-parse linux-rolling-stable) &&
	old=$(git -C rt rev-parse linux-rolling-stable) &&
	test "$want" != "$old" &&
	small_fs_mount tmpfs 8m &&
	full_disk_sweep rt 1 64 rolling advance -q linux-rolling-stable &&
	test "$(git -C "$SMALL/repo" rev-parse linux-rolling-stable)" = "$want" &&
	no_loose_refs "$SMALL/repo" &&
	small_fs_umount
'

# The same for a fetch into the reftable consumer: every failure (the
# objects, the quarantine, git's table of the refs) changes no ref and
# leaves no lock; the success moves the verified and tracking refs and
# the new tags in one table.
test_expect_success REFTABLE,SMALL_FS 'a full disk: fetch writes all or nothing' '
	stable_tree_replay tree 52 &&
	git --git-dir=rt.git fetch -q "$TRASH_DIRECTORY/tree" "+refs/tags/*:refs/tags/*" &&
	git --git-dir=rt.git rolling advance -q &&
	want=$(git --git-dir=rt.git rev-parse linux-rolling-stable) &&
	small_fs_mount tmpfs 16m &&
	full_disk_sweep rt-consumer 2 400 rolling fetch -q origin &&
	test "$(git -C "$SMALL/repo" rev-parse refs/rolling/verified/origin/linux-rolling-stable)" = "$want" &&
	test "$(git -C "$SMALL/repo" rev-parse refs/remotes/origin/linux-rolling-stable)" = "$want" &&
	git -C "$SMALL/repo" rolling verify -q origin/linux-rolling-stable &&
	no_loose_refs "$SMALL/repo" &&
	small_fs_umount
'

# The system git, where it is one that knows no reftable (Debian 12: 2.39).
test_expect_success REFTABLE 'a git that cannot read the repository: refused with its words' '
	old_git=$(command -v -p git) &&
	if "$old_git" -C rt rev-parse --show-ref-format >/dev/null 2>&1
	then
		skip_reason="$old_git reads reftable" &&
		echo "# skipped: $skip_reason"
	else
		(cd rt/.git && find . -type f | sort | xargs md5sum) >before &&
		(cd rt && PATH=$GIT_ROLLING_BUILD_DIR:$(dirname "$old_git"):$PATH &&
		 test_expect_code 128 git-rolling status 2>../err &&
		 test_expect_code 128 git-rolling-advance 2>>../err) &&
		grep "^fatal: .* keeps its refs in reftable, which only git writes, but git cannot use it: unknown repository extension found: refstorage$" err &&
		test_line_count = 2 err &&
		(cd rt/.git && find . -type f | sort | xargs md5sum) >after &&
		test_cmp before after
	fi
'

test_expect_success REFTABLE 'an unknown ref format is refused by name, nothing written' '
	cp -R rt odd &&
	sed -i "s/refstorage = reftable/refstorage = bogus/" odd/.git/config &&
	grep "refstorage = bogus" odd/.git/config &&
	(cd odd && find . -type f | sort | xargs md5sum) >before &&
	# git itself refuses such a repository before it runs git rolling ...
	(cd odd && test_expect_code 128 git rolling status 2>../err) &&
	grep "extensions.refstorage" err &&
	# ... and a script that runs the programs gets the refusal of git rolling.
	(cd odd && test_expect_code 128 git-rolling status 2>../err) &&
	grep "^fatal: .* stores its refs in the .bogus. format" err &&
	grep "git refs migrate --ref-format=files" err &&
	(cd odd && test_expect_code 128 git-rolling-advance 2>../err) &&
	grep "bogus" err &&
	(cd odd && find . -type f | sort | xargs md5sum) >after &&
	test_cmp before after
'

# libgit2 main reads extensions.refStorage itself and does not open such
# a repository at all: the format is then read from the configuration of
# the git directory the search finds, the common one for a linked work
# tree, or GIT_DIR names (repo-format.h).
test_expect_success REFTABLE 'an unknown ref format is refused by name from a linked work tree and with GIT_DIR' '
	cp -R rt odd-common &&
	git -C odd-common worktree add -q --detach ../odd-linked &&
	sed -i "s/refstorage = reftable/refstorage = bogus/" odd-common/.git/config &&
	(cd odd-linked && test_expect_code 128 git-rolling-status 2>../err) &&
	grep "^fatal: .*/odd-common/\.git/. stores its refs in the .bogus. format" err &&
	(cd odd-common && GIT_DIR=.git && export GIT_DIR &&
	 test_expect_code 128 git-rolling-advance 2>../err) &&
	grep "^fatal: .*/odd-common/\.git/. stores its refs in the .bogus. format" err
'

test_done
