#!/bin/sh

test_description='verify accepts good rolling branches

Branches made by init and advance, by the git CLI recipe and fetched
from elsewhere verify, on any revision, with the tag patterns from the
options, the configuration or the linux preset; --since checks only the
new steps; the exit codes and messages follow git conventions.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

test_expect_success 'setup: a rolling branch advanced week by week' '
	verify_fixture tree &&
	git -C tree rev-list --first-parent --merges linux-rolling-stable >merges &&
	test_line_count -gt 20 merges
'

test_expect_success 'a branch made by advance verifies' '
	cd tree &&
	git rolling verify linux-rolling-stable >out 2>err &&
	test_must_be_empty err &&
	tip=$(git rev-parse --short linux-rolling-stable) &&
	tag=$(git log -1 --format=%s linux-rolling-stable | sed "s/^Merge //") &&
	steps=$(git rev-list --count --first-parent --merges linux-rolling-stable) &&
	base=$(git rev-parse --short v5.19.2^{commit}) &&
	cat >expect <<-EOF &&
	linux-rolling-stable: tip $tag ($tip)
	linux-rolling-stable: $steps steps from base v5.19.2 ($base)
	EOF
	head -n 2 out >actual &&
	test_cmp expect actual &&
	tail -n 1 out >actual &&
	echo "linux-rolling-stable: verified" >expect &&
	test_cmp expect actual
'

test_expect_success 'what verify proves agrees with git: only the merges are not in a release' '
	cd tree &&
	git tag -l | grep -E "^v[0-9]+\.[0-9]+\.[1-9][0-9]*$" >release-tags &&
	git rev-list linux-rolling-stable --not $(cat release-tags) | sort >not-released &&
	git rev-list --first-parent --merges linux-rolling-stable | sort >merges &&
	test_cmp merges not-released
'

test_expect_success 'each series switch is reported with its merge' '
	cd tree &&
	git rolling verify linux-rolling-stable >out &&
	for merge in $(git rev-list --reverse --first-parent --merges linux-rolling-stable)
	do
		from=$(git describe --abbrev=0 $merge^1^{commit}) &&
		to=$(git describe --abbrev=0 $merge^2) &&
		if test "${from%.*}" != "${to%.*}"
		then
			from_series=${from%.*} to_series=${to%.*} &&
			echo "linux-rolling-stable: series ${from_series#v} -> ${to_series#v}" \
				"at $(git rev-parse --short $merge) ($from -> $to)"
		fi || return 1
	done >expect &&
	grep ": series " out >actual &&
	test_cmp expect actual &&
	test_line_count = 2 actual
'

test_expect_success 'without arguments every configured branch is verified' '
	cd tree &&
	git rolling init -q --lts --series "5.19 6.1" --at v6.1.3 linux-rolling-lts &&
	git rolling verify >out &&
	grep "^linux-rolling-stable: verified$" out &&
	grep "^linux-rolling-lts: verified$" out &&
	grep "^linux-rolling-lts: 0 steps from base v6.1.3 " out &&
	grep "^linux-rolling-lts: tip v6.1.3 " out
'

test_expect_success 'no configured branch and no argument is fatal' '
	git init -q empty &&
	test_expect_code 128 git -C empty rolling verify 2>err &&
	grep "^fatal: no rolling branches are configured" err
'

test_expect_success 'an unknown revision is fatal' '
	cd tree &&
	test_expect_code 128 git rolling verify no-such-branch 2>err &&
	grep "^fatal: bad revision .no-such-branch." err &&
	test_expect_code 128 git rolling verify --since no-such-rev linux-rolling-stable 2>err &&
	grep "^fatal: --since: bad revision" err
'

test_expect_success 'outside a repository is fatal' '
	mkdir -p nowhere &&
	test_expect_code 128 env GIT_CEILING_DIRECTORIES="$TRASH_DIRECTORY" \
		git -C nowhere rolling verify 2>err &&
	grep "^fatal: not a git repository" err
'

test_expect_success 'usage errors exit 129' '
	cd tree &&
	test_expect_code 129 git rolling verify --no-such-option 2>err &&
	grep "^error: unknown option" err &&
	grep "^usage: git rolling verify" err &&
	test_expect_code 129 git rolling verify -h >out &&
	grep "^usage: git rolling verify" out &&
	grep -e "--rebuild" out
'

test_expect_success 'bad pattern options are fatal' '
	cd tree &&
	test_expect_code 128 git rolling verify --preset debian linux-rolling-stable 2>err &&
	grep "^fatal: unknown preset .debian." err &&
	test_expect_code 128 git rolling verify --release-pattern "v(?<major>[0-9]+)" \
		linux-rolling-stable 2>err &&
	grep "^fatal: " err &&
	test_expect_code 128 git rolling verify --since v6.0.3 linux-rolling-stable \
		linux-rolling-lts 2>err &&
	grep "^fatal: --since needs exactly one" err
'

test_expect_success 'the dispatcher knows verify' '
	test_expect_code 129 git rolling -h >out &&
	grep "^   verify " out
'

test_expect_success 'any revision verifies: a tag, an id, a detached commit' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	git rolling verify $tip >out &&
	grep "^$tip: verified$" out &&
	git rolling verify "linux-rolling-stable~3" >out &&
	grep "verified$" out &&
	git rolling verify v6.1.4 >out &&
	grep "^v6.1.4: 0 steps from base v6.1.4 " out
'

test_expect_success 'a fetched branch verifies without init, with the default preset' '
	git clone -q --no-local tree consumer &&
	cd consumer &&
	test -z "$(git config --get-regexp "^rolling\.")" &&
	git rolling verify origin/linux-rolling-stable >out &&
	grep "^origin/linux-rolling-stable: verified$" out &&
	git rolling verify --preset linux origin/linux-rolling-stable >out &&
	grep "verified$" out &&
	git rolling verify --release-pattern "v(?<major>[0-9]+)\.(?<minor>[0-9]+)\.(?<patch>[1-9][0-9]*)" \
		--mainline-pattern "v(?<major>[0-9]+)\.(?<minor>[0-9]+)(?:-rc(?<rc>[0-9]+))?" \
		origin/linux-rolling-stable >out &&
	grep "verified$" out
'

test_expect_success 'with the wrong tag scheme nothing verifies' '
	cd consumer &&
	test_expect_code 1 git rolling verify --preset systemd origin/linux-rolling-stable >out 2>err &&
	grep "^origin/linux-rolling-stable: FAILED" out &&
	grep "^error: origin/linux-rolling-stable: $(git rev-parse origin/linux-rolling-stable): " err
'

test_expect_success 'a branch made with the git CLI recipe verifies' '
	cd tree &&
	recipe_branch recipe v6.0.2 v6.0.3 v6.0.4 v6.0.7 v6.1.2 v6.1.5 &&
	git rolling verify recipe >out &&
	grep "^recipe: tip v6.1.5 " out &&
	grep "^recipe: 5 steps from base v6.0.2 " out &&
	grep "^recipe: series 6.0 -> 6.1 at $(git rev-parse --short recipe~1) (v6.0.7 -> v6.1.2)$" out &&
	grep "^recipe: verified$" out
'

test_expect_success 'a recipe branch without sign-off, under another identity, verifies' '
	cd tree &&
	(
		RECIPE_SIGNOFF= &&
		GIT_COMMITTER_NAME="Stable Team" && GIT_AUTHOR_NAME="Stable Team" &&
		GIT_COMMITTER_EMAIL=stable@example.org && GIT_AUTHOR_EMAIL=stable@example.org &&
		export GIT_COMMITTER_NAME GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL GIT_AUTHOR_EMAIL &&
		recipe_branch recipe-nosign v6.1.2 v6.1.3 v6.1.4
	) &&
	git log -1 --format="%an <%ae>|%cn <%ce>" recipe-nosign >ident &&
	echo "Stable Team <stable@example.org>|Stable Team <stable@example.org>" >expect &&
	test_cmp expect ident &&
	git cat-file commit recipe-nosign | sed "1,/^\$/d" >msg &&
	echo "Merge v6.1.4" >expect &&
	test_cmp expect msg &&
	git rolling verify --rebuild recipe-nosign >out &&
	grep "^recipe-nosign: verified, merges rebuilt bit for bit$" out
'

test_expect_success '--since checks only the new steps' '
	cd tree &&
	old=$(git rev-parse linux-rolling-stable~5) &&
	old_tag=$(git log -1 --format=%s $old | sed "s/^Merge //") &&
	git rolling verify --since $old linux-rolling-stable >out &&
	grep "^linux-rolling-stable: 5 steps since $old_tag ($(git rev-parse --short $old))$" out &&
	grep "^linux-rolling-stable: verified$" out &&
	git rolling verify --since linux-rolling-stable linux-rolling-stable >out &&
	grep "^linux-rolling-stable: 0 steps since " out &&
	git rolling verify --since v5.19.2 linux-rolling-stable >out &&
	grep "steps since v5.19.2 " out &&
	grep "verified$" out
'

test_expect_success '-q prints nothing for a verified branch' '
	cd tree &&
	git rolling verify -q linux-rolling-stable >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err
'

test_expect_success 'a branch checked out in a linked work tree verifies from there' '
	cd tree &&
	git worktree add -q ../linked linux-rolling-lts &&
	cd ../linked &&
	git rolling verify >out &&
	grep "^linux-rolling-stable: verified$" out &&
	grep "^linux-rolling-lts: verified$" out
'

test_expect_success 'a systemd-style branch verifies with --preset systemd' '
	stable_tree_systemd sd &&
	cd sd &&
	stable_tree_replay . 7 &&
	git rolling init -q --preset systemd systemd-rolling &&
	advance_weekly . 7 $(stable_tree_weeks .) &&
	git rolling verify systemd-rolling >out &&
	grep "^systemd-rolling: verified$" out &&
	grep "^systemd-rolling: series 25[0-9] -> 25[0-9] at " out &&
	git rolling verify --preset systemd "$(git rev-parse systemd-rolling)" >out &&
	grep "verified$" out &&
	test_expect_code 1 git rolling verify --preset linux systemd-rolling >out &&
	grep "FAILED" out
'

test_done
