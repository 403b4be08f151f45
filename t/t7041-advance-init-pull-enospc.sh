#!/bin/sh

test_description='git rolling advance, init and pull on a full disk

Each command runs on a copy of its repository on a small tmpfs filled to
leave 0, 1, 2, ... pages free, until it succeeds.  After every failure
the branch, its reflog, HEAD'"'"'s reflog, the configuration and the work
tree are exactly as they were (or, for pull, the fetch completed and
the fast-forward changed nothing), nothing is left locked, git fsck is
content, and the message names the real cause, No space left on device.
The repositories keep their refs in files, whose reflogs the test reads;
t8040 fills the disk under a reftable repository.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh
. "$TEST_DIRECTORY"/lib-small-fs.sh

if ! test_have_prereq SMALL_FS
then
	skip_all=$small_fs_why
	test_done
fi

BRANCH=linux-rolling-stable
STABLE_REF_FORMAT=files

# local_state REPO: the branches, HEAD, their reflogs, the configuration,
# the index and the work tree.  HEAD, the reflogs and the configuration
# go through one tail -v (each headed by its name, copied byte for byte),
# the files of the work tree through one git hash-object --stdin-paths:
# a git per file made most of the cost of a step.
local_state () {
	repo_state_ "$1" refs/heads "logs/HEAD logs/refs/heads"
}

# state REPO: every ref and every reflog as well.
state () {
	repo_state_ "$1" refs logs
}

# repo_state_ REPO REFS LOGS: the refs under REFS, HEAD, the reflogs
# under LOGS (of the .git directory), and all local_state says besides.
repo_state_ () {
	git -C "$1" for-each-ref --format="%(objectname) %(refname)" $2 &&
	(cd "$1/.git" && tail -v -n +1 HEAD $(find $3 -type f | sort) config) &&
	echo "== index" && git -C "$1" ls-files -s &&
	echo "== status" && git -C "$1" status --porcelain --untracked-files=all &&
	echo "== files" &&
	(cd "$1" && find . -path ./.git -prune -o -type f -print | sort) >"$TRASH_DIRECTORY/state-files" &&
	git -C "$1" hash-object --stdin-paths <"$TRASH_DIRECTORY/state-files" >"$TRASH_DIRECTORY/state-hashes" &&
	paste -d" " "$TRASH_DIRECTORY/state-files" "$TRASH_DIRECTORY/state-hashes"
}

clean_tree () {
	git -C "$1" diff --quiet HEAD &&
	git -C "$1" diff --cached --quiet HEAD &&
	git -C "$1" status --porcelain >st &&
	test_must_be_empty st
}

# run_leaving PRISTINE UNITS CMD...: a fresh copy of PRISTINE on the
# small file system, filled to leave UNITS pages, runs git CMD in it;
# its exit status is in $status.
run_leaving () {
	rl_from=$1 rl_units=$2 &&
	shift 2 &&
	rm -rf "$SMALL/repo" "$SMALL/filler" &&
	cp -a "$rl_from" "$SMALL/repo" &&
	small_fs_leave $((rl_units * small_fs_page)) &&
	free=$small_fs_left &&
	{ git -C "$SMALL/repo" "$@" >out 2>err; status=$?; } &&
	small_fs_unfill
}

# first_fatal: the first fatal line of err with the path of the
# repository taken out, cut to 150 characters, on line 1; with no digits
# on line 2 (what tells one message from the next).  And in
# message-wrong what is wrong with it as the message of a failure:
# nothing, if it names the real cause (git says "Out of diskspace" for
# some writes) and nothing was left half done or refused for local
# changes.  One awk for what took a grep, head and sed each, five times.
first_fatal () {
	awk -v repo="$SMALL/repo/" '
	function cut(s,  i, out) {
		out = ""
		while ((i = index(s, repo)) > 0) {
			out = out substr(s, 1, i - 1)
			s = substr(s, i + length(repo))
		}
		return out s
	}
	/No space left on device|Out of diskspace/ { nospace = 1 }
	/these could not be put back|could not put the work tree back/ { bad = bad $0 "\n" }
	/local changes|not uptodate/ { bad = bad $0 "\n" }
	/^fatal:/ && !seen { first = cut($0); seen = 1 }
	END {
		if (!nospace)
			printf "the message does not name the cause, No space left on device\n" >"message-wrong"
		else
			printf "" >"message-wrong"
		if (bad != "")
			printf "the message says:\n%s", bad >"message-wrong"
		nodigits = first
		gsub(/[0-9]/, "", nodigits)
		if (length(first) > 150)
			first = substr(first, 1, 150) "..."
		print first
		print nodigits
	}' err
}

# enospc_loop NAME PRISTINE CHECK CMD...: leave 0, 1, 2, ... pages until
# CMD succeeds.  A failure must exit 128, name the real cause (git says
# "Out of diskspace" for some writes), leave no lock and a sound
# repository, and pass "CHECK failed"; the success, "CHECK succeeded".
# Each outcome goes to outcomes-NAME with the first line of the message.
# While the message stays the same, four pages at a time: a new one
# steps back to take every page from the last of the old one.
enospc_loop () {
	el_name=$1 el_pristine=$2 el_check=$3 &&
	shift 3 &&
	state "$el_pristine" >before-$el_name &&
	local_state "$el_pristine" >local-before-$el_name &&
	: >outcomes-$el_name &&
	units=0 stride=1 said= &&
	while :
	do
		run_leaving "$el_pristine" $units "$@" || return 1
		first_fatal >fatal &&
		{ IFS= read -r message && IFS= read -r first; } <fatal &&
		if test $stride = 4 && { test $status != 128 || test "$first" != "$said"; }
		then
			units=$((units - 3)) stride=0 &&
			continue
		fi &&
		if test $status = 0
		then
			$el_check succeeded &&
			no_leftovers "$SMALL/repo" &&
			git -C "$SMALL/repo" fsck --no-progress &&
			echo "$el_name, $free bytes free: succeeded" >>outcomes-$el_name &&
			break
		fi &&
		test $status = 128 &&
		{ test_must_be_empty message-wrong || { cat err && false; }; } &&
		$el_check failed &&
		no_leftovers "$SMALL/repo" &&
		git -C "$SMALL/repo" fsck --no-progress &&
		echo "$el_name, $free bytes free: failed, $message" >>outcomes-$el_name &&
		if test $stride = 1 && test "$first" = "$said"
		then
			stride=4
		elif test $stride = 0
		then
			stride=1
		fi &&
		said=$first &&
		units=$((units + stride)) &&
		test $units -lt 400 || return 1
	done &&
	cat outcomes-$el_name
}

test_expect_success 'setup' '
	setup_upstream &&
	publish 12 &&
	git clone -q $(test_ref_format_files) --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" reader &&
	git -C reader rolling init -q --follow origin/$BRANCH &&
	git -C reader rolling pull -q &&
	publish 13 &&
	git --git-dir=server.git rev-parse $BRANCH >week13 &&
	cp -a upstream advancer &&
	git -C advancer checkout -q $BRANCH &&
	stable_tree_replay advancer 14 &&
	clean_tree advancer &&
	small_fs_mount tmpfs 4m
'

# advance: the branch checked out moves with its work tree, or nothing.
check_advance () {
	case $1 in
	failed)
		state "$SMALL/repo" >after &&
		test_cmp before-advance after ;;
	succeeded)
		test "$(git -C "$SMALL/repo" rev-parse HEAD)" != "$(git -C advancer rev-parse HEAD)" &&
		clean_tree "$SMALL/repo" &&
		git -C "$SMALL/repo" rolling verify -q $BRANCH &&
		test $(wc -l <"$SMALL/repo/.git/logs/refs/heads/$BRANCH") -gt \
			$(wc -l <advancer/.git/logs/refs/heads/$BRANCH) &&
		test $(wc -l <"$SMALL/repo/.git/logs/HEAD") -gt $(wc -l <advancer/.git/logs/HEAD) ;;
	esac
}

test_expect_success 'advance of the branch checked out, at every stage' '
	enospc_loop advance advancer check_advance rolling advance -q
'

# init: the branch and its configuration, both or neither.
check_init () {
	case $1 in
	failed)
		state "$SMALL/repo" >after &&
		test_cmp before-init after ;;
	succeeded)
		git -C "$SMALL/repo" rev-parse --verify -q refs/heads/fresh &&
		git -C "$SMALL/repo" config rolling.fresh.releasepattern &&
		test_path_is_file "$SMALL/repo/.git/logs/refs/heads/fresh" ;;
	esac
}

test_expect_success 'init of a new branch, at every stage' '
	enospc_loop init upstream check_init rolling init -q --preset linux fresh
'

# pull: all refs and the work tree as they were; or the fetch done and
# the branch, its reflog and work tree as they were; or all moved.
check_pull () {
	new=$(cat week13) &&
	case $1 in
	failed)
		if test "$(git -C "$SMALL/repo" rev-parse refs/rolling/verified/origin/$BRANCH)" = $new
		then
			echo "the fetch completed" >>err &&
			test "$(git -C "$SMALL/repo" rev-parse refs/remotes/origin/$BRANCH)" = $new &&
			local_state "$SMALL/repo" >after &&
			test_cmp local-before-pull after
		else
			state "$SMALL/repo" >after &&
			test_cmp before-pull after
		fi ;;
	succeeded)
		test "$(git -C "$SMALL/repo" rev-parse HEAD)" = $new &&
		clean_tree "$SMALL/repo" ;;
	esac
}

# pull is git rolling fetch (t7040 fills the disk at its every stage)
# then the move of the branch checked out that advance makes above: the
# two together at every stage are for make test-long.
test_expect_success EXPENSIVE 'pull: fetch and fast-forward, at every stage' '
	enospc_loop pull reader check_pull rolling pull -q
'

test_expect_success 'cleanup: the small file system goes' '
	small_fs_umount
'

test_done
