#!/bin/sh

test_description='names of any length, end to end

Tag names, branch names and remote names have no length limit in git,
and neither have the messages and reflog entries made of them: every
command must print them whole.  The only limit is libgit2'"'"'s, which
reads ref names of fewer than 1,024 bytes; a name beyond it is refused
and nothing changes.

Release tags here are 810-byte names (four 200-byte directories), the
rolling branch name is 973 bytes, the remote name 605 bytes; each kind
of release tag (annotated, signed, and in make test-long lightweight)
gets its own tree.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-sign-tags.sh

repeat () {
	printf "%$2s" "" | tr " " "$1"
}

X200=$(repeat x 200)
P=$X200/$X200/$X200/$X200
Y240=$(repeat y 240)
B=rolling/$Y240/$Y240/$Y240/$Y240/s
R200=$(repeat r 200)
R=up/$R200/$R200/$R200
RELEASE='(?:x+/)*v(?<major>\d+)\.(?<minor>\d+)\.(?<patch>\d+)'
MAINLINE='(?:x+/)*v(?<major>\d+)\.(?<minor>\d+)(?:-rc(?<rc>\d+))?'

# commit_on DAY SUBJECT [BODY]: a commit of a file of its own, dated
# 2024-01-DAY, in the current directory.
commit_on () {
	echo "$2" >"$2.t" &&
	git add "$2.t" &&
	GIT_AUTHOR_DATE="2024-01-${1}T10:00:00Z" GIT_COMMITTER_DATE="2024-01-${1}T10:00:00Z" \
		git commit -q -m "$2" ${3:+-m "$3"}
}

# tag_as KIND NAME: tag HEAD as the release or mainline tag NAME; signed
# tags are annotated ones until sign_all_tags signs them all, and made
# with git tag -s once it has set signing up.
tag_as () {
	case $1 in
	lightweight) git tag "$2" ;;
	annotated) git tag -a -m "$2" "$2" ;;
	signed)
		if test -n "$(git config user.signingKey)"
		then
			git tag -s -m "$2" "$2"
		else
			git tag -a -m "$2" "$2"
		fi ;;
	esac
}

# long_tree DIR KIND: mainline 1.0, 1.1, 1.2-rc1 on master; stable 1.0.1,
# 1.0.2 and 1.1.1, whose commit "backport five" copies the mainline
# commit "upstream five" and adds the file "broken"; all tags $P/v*.
# Built once, with lightweight tags, and copied for each kind by
# long_tree_as.
long_tree () {
	git init -q -b master "$1" &&
	(
		cd "$1" &&
		commit_on 01 one && tag_as $2 "$P/v1.0" &&
		git checkout -q -b stable-1.0 &&
		commit_on 02 fix-one && tag_as $2 "$P/v1.0.1" &&
		git checkout -q master &&
		commit_on 03 upstream-two &&
		git checkout -q stable-1.0 &&
		commit_on 04 fix-two && tag_as $2 "$P/v1.0.2" &&
		git checkout -q master &&
		commit_on 05 three && tag_as $2 "$P/v1.1-rc1" &&
		commit_on 06 four && tag_as $2 "$P/v1.1" &&
		git branch stable-1.1 &&
		commit_on 07 upstream-five &&
		commit_on 08 upstream-six &&
		git checkout -q stable-1.1 &&
		echo broken >broken &&
		git add broken &&
		commit_on 09 backport-five "commit $(git rev-parse master~1) upstream." &&
		tag_as $2 "$P/v1.1.1" &&
		git checkout -q master &&
		commit_on 10 seven && tag_as $2 "$P/v1.2-rc1"
	)
}

# long_tree_as DIR KIND: a copy of the tree "history" (long_tree's, with
# lightweight tags), each tag made again as KIND tags it.
long_tree_as () {
	cp -R history "$1" &&
	if test $2 != lightweight
	then
		git -C "$1" for-each-ref --format="%(objectname) %(refname:strip=2)" \
			refs/tags >"$1.tags" &&
		while read -r commit name
		do
			git -C "$1" tag -f -a -m "$name" "$name" $commit >/dev/null || return 1
		done <"$1.tags"
	fi &&
	if test $2 = signed
	then
		sign_all_tags "$1" "$TRASH_DIRECTORY/signing-key"
	fi
}

snapshot () {
	{ git -C "$1" for-each-ref && cat "$1/.git/config"; } >"$2"
}

test_expect_success 'the names are as long as the description says' '
	test ${#P} = 803 &&
	test ${#B} = 973 &&
	test ${#R} = 605 &&
	test $(printf "refs/heads/%s" "$B" | wc -c) -lt 1024 &&
	test $(printf "refs/rolling/verified/%s/stable" "$R" | wc -c) -lt 1024
'

test_expect_success 'setup: the history and its releases, tagged lightweight' '
	long_tree history lightweight &&
	git -C history for-each-ref refs/tags >tags &&
	test_line_count = 7 tags
'

# make test takes the annotated and the signed trees through every
# command; the lightweight one, which only lacks the tag objects, is
# for make test-long (EXPENSIVE).
if test_have_prereq EXPENSIVE
then
	KINDS="annotated lightweight signed"
else
	KINDS="annotated signed"
fi

for kind in $KINDS
do
	T=$kind

	test_expect_success "$kind: setup" '
		long_tree_as $T $T &&
		test "$(git -C $T cat-file -t "$P/v1.0.1")" = \
			"$(case $T in lightweight) echo commit ;; *) echo tag ;; esac)"
	'

	test_expect_success "$kind: init names the release and writes a whole reflog message" '
		git -C $T rolling init --release-pattern "$RELEASE" --mainline-pattern "$MAINLINE" \
			--at "$P/v1.0.1" "$B" >out &&
		grep -Fx "created '"'"'$B'"'"' at $P/v1.0.1 ($(git -C $T rev-parse --short=7 "$P/v1.0.1^{commit}"))" out &&
		grep -Fx "  1.1      newest $P/v1.1.1" out &&
		test "$(git -C $T rev-parse "refs/heads/$B")" = "$(git -C $T rev-parse "$P/v1.0.1^{commit}")" &&
		test "$(git -C $T config "rolling.$B.policy")" = stable
	'

	test_expect_success "$kind: the reflog keeps the release name whole" '
		git -C $T reflog show --format=%gs "refs/heads/$B" >actual &&
		echo "rolling: created at $P/v1.0.1" >expect &&
		test_cmp expect actual
	'

	test_expect_success "$kind: status shows every name whole" '
		git -C $T rolling advance -n --porcelain >dry &&
		awk "{ print \$5 }" dry >ids &&
		test_line_count = 2 ids &&
		git -C $T rolling status >out &&
		grep -Fx "$B: policy stable, follows 1.0" out &&
		grep -Fx "  tip: $P/v1.0.1 (2024-01-02)" out &&
		grep -Fx "  pending: 2 steps, 2 releases not reached: $P/v1.0.2 $P/v1.1.1" out &&
		# merges not written yet: as long as git abbreviates an id here
		len=$(git -C $T rev-parse --short HEAD | tr -d "\n" | wc -c) &&
		grep -Fx "  advance would merge $P/v1.0.2 ($(sed -n 1p ids | cut -c1-$len))" out &&
		grep -Fx "  advance would merge $P/v1.1.1 ($(sed -n 2p ids | cut -c1-$len)), series 1.0 -> 1.1" out &&
		git -C $T rolling status --porcelain >out &&
		grep -Fx "branch $B stable 1.0 $P/v1.0.1 $(git -C $T rev-parse "refs/heads/$B")" out &&
		grep -Fx "step $B $P/v1.1.1 $(sed -n 2p ids) 1.0 1.1" out &&
		grep -Fx "pending $B $P/v1.0.2" out
	'

	test_expect_success "$kind: advance makes the recipe's merges and prints whole names" '
		git -C $T rolling advance >out &&
		tip=$(git -C $T rev-parse "refs/heads/$B") &&
		test "$tip" = "$(sed -n 2p ids)" &&
		grep -Fx "$B: $P/v1.0.2 -> $P/v1.1.1 ($(git -C $T rev-parse --short $tip)), series 1.0 -> 1.1" out &&
		git -C $T log --first-parent --format=%s "$tip" -2 >subjects &&
		printf "Merge %s\n" "$P/v1.1.1" "$P/v1.0.2" >expect &&
		test_cmp expect subjects &&
		test "$(git -C $T rev-parse "$tip^2")" = "$(git -C $T rev-parse "$P/v1.1.1^{commit}")" &&
		test "$(git -C $T rev-parse "$tip^{tree}")" = "$(git -C $T rev-parse "$P/v1.1.1^{tree}")"
	'

	test_expect_success "$kind: the reflog keeps each merge's release whole" '
		git -C $T reflog show --format=%gs "refs/heads/$B" >actual &&
		if test "$(test_ref_format $T)" = reftable
		then
			# one line for the run, its steps joined (gitrolling(7))
			echo "rolling: merge $P/v1.0.2, merge $P/v1.1.1" >expect
		else
			printf "rolling: merge %s\n" "$P/v1.1.1" "$P/v1.0.2" >expect
		fi &&
		echo "rolling: created at $P/v1.0.1" >>expect &&
		test_cmp expect actual
	'

	test_expect_success "$kind: log and log --json name every step whole" '
		git -C $T rolling log >out &&
		grep -F " $P/v1.1.1 " out | grep -F "series 1.0 -> 1.1, includes the 1.1 development cycle" &&
		grep -F " $P/v1.0.1 " out | grep " base$" &&
		git -C $T rolling log --json >json &&
		if test_have_prereq PYTHON3
		then
			test_python3 -c "
import json, sys
doc = json.load(open(\"json\"))
branch = doc[\"branches\"][0]
assert branch[\"name\"] == sys.argv[1], branch[\"name\"]
assert [s[\"release\"] for s in branch[\"steps\"]] == [sys.argv[2] + v for v in (\"/v1.1.1\", \"/v1.0.2\", \"/v1.0.1\")]
" "$B" "$P"
		fi
	'

	test_expect_success "$kind: verify names the branch and the releases whole" '
		case $T in signed) signatures=--signatures ;; *) signatures= ;; esac &&
		git -C $T rolling verify $signatures >out &&
		grep -Fx "$B: tip $P/v1.1.1 ($(git -C $T rev-parse --short "refs/heads/$B"))" out &&
		grep -Fx "$B: series 1.0 -> 1.1 at $(git -C $T rev-parse --short "refs/heads/$B") ($P/v1.0.2 -> $P/v1.1.1)" out &&
		grep -Fx "$B: verified${signatures:+, 3 release signatures good}" out
	'

	test_expect_success "$kind: describe names the step whole" '
		tip=$(git -C $T rev-parse "refs/heads/$B") &&
		git -C $T rolling describe stable-1.1 >out &&
		echo "first in $B at $P/v1.1.1 (merge $(git -C $T rev-parse --short $tip), 2024-01-09)" >expect &&
		test_cmp expect out
	'

	test_expect_success "$kind: describe names the step of a backport whole" '
		tip=$(git -C $T rev-parse "refs/heads/$B") &&
		test_expect_code 1 git -C $T rolling describe master~2 >out &&
		echo "not in $B; backported as $(git -C $T rev-parse --short stable-1.1) in $P/v1.1.1 (merge $(git -C $T rev-parse --short $tip), 2024-01-09)" >expect &&
		test_cmp expect out
	'

	test_expect_success "$kind: describe names a release of a series the branch left whole" '
		(
			cd $T &&
			git checkout -q stable-1.0 &&
			commit_on 11 backport-six "commit $(git rev-parse master~1) upstream." &&
			tag_as $T "$P/v1.0.3" &&
			git checkout -q master
		) &&
		test_expect_code 1 git -C $T rolling describe master~1 >out &&
		echo "not in $B; backported as $(git -C $T rev-parse --short stable-1.0) in $P/v1.0.3, after the branch left the 1.0 series" >expect &&
		test_cmp expect out
	'

	test_expect_success "$kind: bisect-helper names the steps and the merge base whole" '
		tip=$(git -C $T rev-parse "refs/heads/$B") &&
		test_when_finished "git -C $T bisect reset >/dev/null 2>&1; git -C $T checkout -q master" &&
		git -C $T checkout -q --detach "$tip" &&
		git -C $T rolling bisect-helper start "$tip" "$P/v1.0.1" >out &&
		grep -Fx "stage one: bisecting the 2 steps of $B after $P/v1.0.1 (base $(git -C $T rev-parse --short "$P/v1.0.1^{commit}"), 2024-01-02) (good) up to $P/v1.1.1 (merge $(git -C $T rev-parse --short $tip), 2024-01-09) (bad)" out &&
		git -C $T rolling bisect-helper run sh -c "! test -f broken" >out 2>err &&
		grep -Fx "git first asks to test their merge base $(git -C $T rev-parse --short "$P/v1.0^{commit}") ($P/v1.0)" err &&
		grep -Fx "first bad commit: $(git -C $T rev-parse stable-1.1) backport-five" out &&
		grep -Fx "first shipped: $B at $P/v1.1.1 (merge $(git -C $T rev-parse --short $tip), 2024-01-09)" out
	'

	test_expect_success "$kind: a server and a clone that follows it under a long remote name" '
		git init -q --bare $T-server.git &&
		git -C $T push -q "$TRASH_DIRECTORY/$T-server.git" "refs/tags/*:refs/tags/*" \
			"refs/heads/$B:refs/heads/stable" &&
		git init -q -b stable $T-clone &&
		git -C $T-clone remote add "$R" "file://$TRASH_DIRECTORY/$T-server.git" &&
		git -C $T-clone rolling init --follow "$R/stable" --release-pattern "$RELEASE" \
			--mainline-pattern "$MAINLINE" >out &&
		echo "following $R/stable: git rolling fetch $R verifies it from now on" >expect &&
		test_cmp expect out &&
		test "$(git -C $T-clone config "rolling.remote.$R.branches")" = stable
	'

	test_expect_success "$kind: fetch under the long remote name verifies and keeps its reflog whole" '
		tip=$(git -C $T rev-parse "refs/heads/$B") &&
		git -C $T-clone rolling fetch "$R" >out &&
		grep -Fx "$R/stable: tip $P/v1.1.1 ($(git -C $T rev-parse --short $tip))" out &&
		grep -Fx "$R/stable: verified" out &&
		grep -Fx "$R/stable: verified for the first time at $(git -C $T rev-parse --short $tip)" out &&
		test "$(git -C $T-clone rev-parse "refs/remotes/$R/stable")" = $tip &&
		test "$(git -C $T-clone rev-parse "refs/rolling/verified/$R/stable")" = $tip &&
		git -C $T-clone reflog show --format=%gs "refs/rolling/verified/$R/stable" >actual &&
		if test "$(test_ref_format $T-clone)" = reftable
		then
			# one message for the transaction, the tags'"'"' joined (gitrolling(7))
			echo "rolling fetch $R: verified $P/v1.1.1, release tag" >expect
		else
			echo "rolling fetch $R: verified $P/v1.1.1" >expect
		fi &&
		test_cmp expect actual
	'

	test_expect_success "$kind: pull from the long remote name fast-forwards" '
		tip=$(git -C $T rev-parse "refs/heads/$B") &&
		git -C $T-clone update-ref refs/heads/stable "$P/v1.0.1^{commit}" &&
		git -C $T-clone reset -q --hard &&
		git -C $T-clone config branch.stable.remote "$R" &&
		git -C $T-clone config branch.stable.merge refs/heads/stable &&
		git -C $T-clone rolling pull >out &&
		grep -Fx "Fast-forward" out &&
		test "$(git -C $T-clone rev-parse HEAD)" = $tip &&
		git -C $T-clone status --porcelain >status &&
		test_must_be_empty status
	'
done

test_expect_success 'a branch name beyond what libgit2 reads is refused, and nothing changes' '
	long=$B/$Y240 &&
	snapshot annotated before &&
	test_expect_code 128 git -C annotated rolling init --release-pattern "$RELEASE" \
		--mainline-pattern "$MAINLINE" "$long" 2>err &&
	grep "^fatal: " err &&
	snapshot annotated after &&
	test_cmp before after
'

test_expect_success 'init --follow checks the whole branch name, not its first 1,024 bytes' '
	z=$(repeat z 200) &&
	name=$z/$z/$z/$z/$z/$z.lock &&
	test $(printf "refs/heads/%s" "$name" | wc -c) -gt 1024 &&
	snapshot annotated-clone before &&
	test_expect_code 128 git -C annotated-clone rolling init --follow "$R/$name" \
		--release-pattern "$RELEASE" --mainline-pattern "$MAINLINE" 2>err &&
	grep -F "fatal: '"'"'$name'"'"' is not a valid branch name" err &&
	snapshot annotated-clone after &&
	test_cmp before after
'

test_expect_success 'a command name of any length is not a command, and says so' '
	name=$(repeat q 300) &&
	test_expect_code 1 git rolling "$name" 2>err &&
	echo "git rolling: '"'"'$name'"'"' is not a git rolling command. See '"'"'git rolling --help'"'"'." >expect &&
	test_cmp expect err
'

test_done
