#!/bin/sh

test_description='init --backfill builds the past that advance would have made

The oracle replays the tags of a generated tree one at a time, in the
order they appeared (git for-each-ref %(creatordate): the tagger date of
an annotated tag, the committer date of a lightweight one), and runs
git rolling init at the first moment it succeeds and git rolling advance
after every later tag.  init --backfill on the complete tree must give
the same tip, bit for bit.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh

# The replay of the first tests runs hundreds of commands, one advance
# per tag.  make test replays five mainline series with one switch of the
# long-term series (5.19 -> 6.1); make test-long the default tree's ten,
# with two (6.1 -> 6.6 as well).
if test_have_prereq EXPENSIVE
then
	LTS_SERIES="5.19 6.1 6.6"
	TREE_MAINLINE=
	MIN_EVENTS=300 MIN_MERGES=50
else
	LTS_SERIES="5.19 6.1"
	TREE_MAINLINE="5.19 6.0 6.1 6.2 6.3"
	MIN_EVENTS=120 MIN_MERGES=25
fi

# tag_events <release-and-mainline-regex>: "<time> <tag> <object>" of the
# tags that are events, in the order they appeared (ties by name, in
# version order).
tag_events () {
	git for-each-ref --format="%(creatordate:unix) %(refname:short) %(objectname)" refs/tags |
	awk -v re="$1" "\$2 ~ re" | sort -k1,1n -k2,2V
}

# replay_reference <events-file> <branch> <init-options> [<branch>
# <init-options>]...: delete the event tags, then recreate them one by
# one; init each branch (with its options, word-split) as soon as init
# succeeds, and advance the branches made after every later tag, all of
# them with one advance.  Each tag is made by test_write_refs (a git
# update-ref per tag).  Every later command reads the loose refs again,
# once per branch in advance: the refs are packed every 16 tags, so
# that the newest ones stay loose.  The replay runs
# git-rolling-<cmd> itself (replay_rolling_), without a git process and
# the dispatcher in front of each of its hundreds of commands.
replay_reference () {
	events=$1 &&
	shift &&
	awk "{ print \"delete refs/tags/\" \$2 }" "$events" | git update-ref --stdin &&
	made= &&
	count=0 &&
	while read time tag object
	do
		echo "refs/tags/$tag $object" >"$TRASH_DIRECTORY/replay.ref" &&
		test_write_refs <"$TRASH_DIRECTORY/replay.ref" &&
		replay_init_ "$@" &&
		if test -n "$made"
		then
			replay_rolling_ advance -q $made || return 1
		fi &&
		count=$((count + 1)) &&
		if test $((count % 16)) = 0
		then
			git pack-refs --all || return 1
		fi
	done <"$events" &&
	while test $# -gt 0
	do
		case " $made " in
		*" $1 "*) ;;
		*) echo "$1 was never made"; return 1 ;;
		esac &&
		shift 2
	done
}

# replay_rolling_ <cmd> <args>: git-rolling-<cmd> itself, or under make
# valgrind the dispatcher, which is the wrapper that runs memcheck on the
# command as well.
replay_rolling_ () {
	if test -n "$GIT_ROLLING_TEST_VALGRIND"
	then
		git-rolling "$@"
	else
		replay_cmd_=$1 &&
		shift &&
		"git-rolling-$replay_cmd_" "$@"
	fi
}

# replay_init_ <branch> <init-options>...: init the branches not made yet
# that init accepts now, and add them to $made.
replay_init_ () {
	while test $# -gt 0
	do
		case " $made " in
		*" $1 "*) ;;
		*)
			# "--at <release>": made the moment <release> appears.
			case "$2" in
			"--at $tag") ;;
			--at\ *) shift 2; continue ;;
			esac &&
			if replay_rolling_ init -q $2 "$1" 2>/dev/null
			then
				made="$made $1"
			fi ;;
		esac &&
		shift 2
	done
}

LINUX_EVENTS='^v[0-9]+\.[0-9]+(\.[0-9]+|-rc[0-9]+)?$'

test_expect_success 'setup: a linux tree and its events' '
	if test -n "$TREE_MAINLINE"
	then
		STABLE_MAINLINE=$TREE_MAINLINE STABLE_LTS=$LTS_SERIES stable_tree_linux tree
	else
		stable_tree_linux tree
	fi &&
	cd tree &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	tag_events "$LINUX_EVENTS" >../events &&
	test_line_count -gt $MIN_EVENTS ../events
'

test_expect_success 'stable and lts: backfill equals init then advance after every tag' '
	cd tree &&
	git rolling init --backfill linux-rolling-stable >out &&
	grep "^created .linux-rolling-stable. at v5.19.2 ([0-9a-f]*), replayed [0-9]* tags since: [0-9]* steps, tip [0-9a-f]*$" out &&
	git rolling init -q --backfill --lts --series "$LTS_SERIES" linux-rolling-lts &&
	series=$(echo $LTS_SERIES | tr " " ,) &&
	replay_reference ../events reference --stable reference-lts "--lts --series $series" \
		reference-each "--stable --each" reference-each-lts "--lts --each --series $series" \
		reference-613 "--at v6.1.3" reference-5191 "--at v5.19.1" &&
	test "$(git rev-parse reference)" = "$(git rev-parse linux-rolling-stable)" &&
	test "$(git rev-parse reference-lts)" = "$(git rev-parse linux-rolling-lts)" &&
	git rolling verify --rebuild linux-rolling-stable linux-rolling-lts &&
	test $(git rev-list --count --first-parent --merges linux-rolling-stable) -gt $MIN_MERGES
'

# Replayed tag by tag, every release is merged as it appears in both
# modes; the modes differ only in what advance does after several tags.
# The reference branches were made by the replay of the test above.
test_expect_success 'steps = each: as advance makes them' '
	cd tree &&
	git rolling init -q --backfill --each each-stable &&
	test "$(git config rolling.each-stable.steps)" = each &&
	git rolling init -q --backfill --each --lts --series "$LTS_SERIES" each-lts &&
	test "$(git config rolling.reference-each.steps)" = each &&
	test "$(git rev-parse reference-each)" = "$(git rev-parse each-stable)" &&
	test "$(git rev-parse reference-each-lts)" = "$(git rev-parse each-lts)" &&
	git rolling verify --rebuild each-stable each-lts
'

# The oracle for --at is the replay of the first test: it makes the
# reference branch with init --at <release> the moment that release
# appeared (the tags before it as they were), advances it at once, and
# after each later tag.
test_expect_success '--at: from the moment that release appeared' '
	cd tree &&
	git rolling init -q --backfill --at v6.1.3 from-613 &&
	oldest=$(git rev-list --first-parent --merges from-613 | tail -n 1) &&
	test "$(git rev-parse $oldest^1)" = "$(git rev-parse v6.1.3^{commit})" &&
	test "$(git rev-parse reference-613)" = "$(git rev-parse from-613)"
'

test_expect_success '--at before any series qualified: advance catches up in its series' '
	cd tree &&
	git rolling init -q --backfill --at v5.19.1 from-5191 &&
	test "$(git rev-parse reference-5191)" = "$(git rev-parse from-5191)" &&
	git rev-list --first-parent from-5191 >chain &&
	grep -q $(git rev-parse v5.19.1^{commit}) chain
'

# v6.0.3 came out the week after v6.1-rc1; dated at the same second, it is
# taken first (version order), before 6.0 became the followed series.
test_expect_success 'tags of the same second are taken in version order' '
	STABLE_MAINLINE="5.19 6.0 6.1" STABLE_LTS= stable_tree_linux tie &&
	cd tie &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	rc1_time=$(git for-each-ref --format="%(taggerdate:unix)" refs/tags/v6.1-rc1) &&
	GIT_COMMITTER_DATE="$rc1_time +0100" git tag -f -a -m "Linux 6.0.3" v6.0.3 v6.0.3^{commit} &&
	tag_events "$LINUX_EVENTS" >../tie-events &&
	grep -A1 " v6.0.3 " ../tie-events | grep " v6.1-rc1 " &&
	git rolling init -q --backfill linux-rolling-stable &&
	replay_reference ../tie-events reference --stable &&
	test "$(git rev-parse reference)" = "$(git rev-parse linux-rolling-stable)" &&
	git log --first-parent --format=%s linux-rolling-stable >subjects &&
	grep "^Merge v6.0.3$" subjects &&
	! grep "^Merge v6.0.2$" subjects
'

if ssh-keygen -q -t ed25519 -N "" -C stable -f "$TRASH_DIRECTORY/stable.key" >/dev/null 2>&1 &&
   echo data | ssh-keygen -Y sign -n git -f "$TRASH_DIRECTORY/stable.key" >/dev/null 2>&1
then
	test_set_prereq SSH_SIGN
fi

# The generator signs every release and mainline tag as git tag -s does,
# keeping the tags' dates (lib-sign-tags.sh), once per run of the suite.
# A signed tag is an annotated tag with a longer message: make test-long
# replays it; make test replays annotated tags above and lightweight
# ones (the committer's date) below.
test_expect_success EXPENSIVE,SSH_SIGN 'signed tags (SSH), with their dates: the same' '
	STABLE_SIGNED_TAGS=1 STABLE_MAINLINE="5.19 6.0 6.1" STABLE_LTS= stable_tree_linux signed &&
	cd signed &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	git cat-file tag v6.0.3 | grep "^-----BEGIN SSH SIGNATURE-----$" &&
	git verify-tag v6.0.3 v6.1-rc1 2>/dev/null &&
	tag_events "$LINUX_EVENTS" >../signed-events &&
	grep -v " v6.0.3 " ../signed-events | cut -d" " -f1,2 >../signed-dates &&
	grep -v " v6.0.3 " ../tie-events | cut -d" " -f1,2 >../tie-dates &&
	test_cmp ../tie-dates ../signed-dates &&
	git rolling init -q --backfill linux-rolling-stable &&
	replay_reference ../signed-events reference --stable &&
	test "$(git rev-parse reference)" = "$(git rev-parse linux-rolling-stable)"
'

test_expect_success 'refusals change nothing' '
	cd tree &&
	git for-each-ref >refs-before &&
	git config --list --local >config-before &&
	test_expect_code 128 git rolling init --backfill --at v9.9.9 nothing 2>err &&
	grep "^fatal: .v9.9.9. is not a release tag" err &&
	test_expect_code 128 git rolling init --backfill linux-rolling-stable 2>err &&
	grep "^fatal: a branch named .linux-rolling-stable. already exists" err &&
	test_expect_code 128 git rolling init --progress other 2>err &&
	grep "^fatal: --progress is for --backfill$" err &&
	git for-each-ref >refs-after &&
	git config --list --local >config-after &&
	test_cmp refs-before refs-after &&
	test_cmp config-before config-after
'

test_expect_success 'progress counts the tags replayed' '
	cd tree &&
	GIT_PROGRESS_DELAY=0 git rolling init -q --force --backfill --progress again 2>err &&
	tr "\r" "\n" <err >lines &&
	grep "^Replaying tags: 100% ([0-9]*/[0-9]*), done.$" lines &&
	git rolling init --force --backfill again >/dev/null 2>err &&
	test_must_be_empty err
'

test_expect_success 'systemd, lightweight tags: the same' '
	STABLE_LIGHTWEIGHT_TAGS=1 stable_tree_systemd sd &&
	cd sd &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	test "$(git cat-file -t v255.1)" = commit &&
	tag_events "^v[0-9]+(\.[0-9]+|-rc[0-9]+)?$" >../sd-events &&
	git rolling init -q --preset systemd --backfill systemd-stable &&
	replay_reference ../sd-events reference "--preset systemd" &&
	test "$(git rev-parse reference)" = "$(git rev-parse systemd-stable)" &&
	test $(git rev-list --count --first-parent --merges systemd-stable) -gt 20
'

test_done
