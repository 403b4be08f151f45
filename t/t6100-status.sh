#!/bin/sh

test_description='git rolling status tells where each branch stands

Checked against plain git: the steps are those advance --dry-run would
make (same ids), the pending releases those git tag lists between the
tip and the target, and status changes neither refs nor configuration.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh

LTS_SERIES="5.19 6.1 6.6"

# snapshot: every ref and the configuration, to prove nothing changed.
snapshot () {
	git for-each-ref --format="%(refname) %(objectname)" &&
	git config --list --local
}

test_expect_success 'setup: branches made at 6.1-rc1, twelve weeks of releases since' '
	stable_tree_linux tree &&
	cd tree &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	week=$(stable_tree_week_of . v6.1-rc1) &&
	stable_tree_replay . $week &&
	git rolling init -q linux-rolling-stable &&
	git rolling init -q --lts --series "$LTS_SERIES" linux-rolling-lts &&
	stable_tree_replay . $((week + 12))
'

test_expect_success 'the steps are what advance --dry-run would make, with its ids' '
	cd tree &&
	snapshot >before &&
	git rolling status --porcelain >out &&
	snapshot >after &&
	test_cmp before after &&
	git rolling advance --dry-run --porcelain >dry &&
	awk "{ print \$1, \$2, \$4, \$5, \$6, \$7 }" dry >expect &&
	grep "^step " out >actual &&
	test_cmp expect actual &&
	test_line_count = 3 actual
'

test_expect_success 'pending releases are those between the tip and the target' '
	cd tree &&
	git rolling status --porcelain linux-rolling-stable >out &&
	tip=$(git describe --exact-match linux-rolling-stable) &&
	{
		git tag -l "v6.0.*" | grep -E "^v6\.0\.[0-9]+$" | sort -V |
			awk -v tip="$tip" "found { print } \$0 == tip { found = 1 }" &&
		git tag -l "v6.1.*" | grep -E "^v6\.1\.[0-9]+$" | sort -V
	} | sed "s/^/pending linux-rolling-stable /" >expect &&
	grep "^pending " out >actual &&
	test_cmp expect actual &&
	grep "^branch linux-rolling-stable stable 6.0 $tip $(git rev-parse linux-rolling-stable)$" out
'

test_expect_success 'a series passed over: none of its releases is pending' '
	cd tree &&
	git rolling init -q --at v5.19.5 passing &&
	git rolling status --porcelain passing >out &&
	target=$(sed -n "s/^step passing .* \([0-9.]*\)$/\1/p" out | tail -n 1) &&
	test "$target" != 6.0 &&
	test -n "$(git tag -l "v6.0.*")" &&
	{
		git tag -l "v5.19.*" | grep -E "^v5\.19\.[0-9]+$" | sort -V |
			awk "found { print } \$0 == \"v5.19.5\" { found = 1 }" &&
		git tag -l "v$target.*" | grep -E "^v$target\.[0-9]+$" | sort -V
	} | sed "s/^/pending passing /" >expect &&
	grep "^pending " out >actual &&
	test_cmp expect actual &&
	git branch -D -q passing &&
	git config --remove-section rolling.passing
'

test_expect_success 'the human format: tip, steps, the switch that is due' '
	cd tree &&
	git rolling status linux-rolling-stable >out &&
	tip=$(git describe --exact-match linux-rolling-stable) &&
	day=$(git log -1 --format=%cd --date=short linux-rolling-stable) &&
	sed -n 2p out >actual &&
	echo "  tip: $tip ($day)" >expect &&
	test_cmp expect actual &&
	head -n 1 out >actual &&
	echo "linux-rolling-stable: policy stable, follows 6.0" >expect &&
	test_cmp expect actual &&
	git rolling advance --dry-run linux-rolling-stable |
		sed -e "s/^linux-rolling-stable: [^ ]* -> /  advance would merge /" -e "s/ \[dry run\]$//" >expect &&
	grep "^  advance would merge " out >actual &&
	test_cmp expect actual &&
	grep "^  series switch due: 6.0 -> 6.1$" out
'

test_expect_success 'what the next switch waits for: lts waits for the next final' '
	cd tree &&
	git rolling status linux-rolling-lts >out &&
	grep "^  next switch: 6.1 becomes the lts series when v6.2 is released$" out
'

test_expect_success 'after advance: up to date, and stable waits for a release and an rc' '
	cd tree &&
	git rolling advance -q &&
	git rolling status >out &&
	test $(grep -c "^  up to date: advance has nothing to do$" out) = 2 &&
	test -z "$(git tag -l "v6.2.*")" &&
	grep "^  next switch: 6.2 becomes the stable series when it has a point release and mainline tags a pre-release of the series after it$" out &&
	git rolling status --porcelain >out &&
	! grep -e "^step " -e "^pending " out
'

test_expect_success 'steps = each: every pending release is a step, as advance would make it' '
	cd tree &&
	git rolling init -q --force --at v6.0.5 --each each-branch &&
	git rolling status --porcelain each-branch >out &&
	git rolling advance --dry-run --porcelain each-branch >dry &&
	awk "{ print \$1, \$2, \$4, \$5, \$6, \$7 }" dry >expect &&
	grep "^step " out >actual &&
	test_cmp expect actual &&
	test_line_count -gt 3 actual
'

test_expect_success 'a pin behind the policy is shown' '
	cd tree &&
	git rolling init -q --force --at v6.0.5 --pin 6.0 pinned &&
	git rolling status pinned >out &&
	grep "^  pinned to 6.0 by rolling.pinned.pin, behind the policy.s 6.1$" out &&
	! grep "next switch" out &&
	git rolling status --porcelain pinned >out &&
	grep "^pin pinned 6.0 6.1$" out
'

test_expect_success 'a missing identity and hazards are shown, and the exit status is 0' '
	cd tree &&
	test_when_finished "git config user.name \"Rolling Tester\"; git update-ref -d refs/replace/$(git rev-parse master)" &&
	git config --unset user.name &&
	git update-ref refs/replace/$(git rev-parse master) $(git rev-parse master~1) &&
	mkdir -p nohome &&
	HOME=$PWD/nohome GIT_CONFIG_GLOBAL=/dev/null git rolling status linux-rolling-stable >out &&
	grep "^  identity missing: set user.name and user.email, or rolling.linux-rolling-stable.ident$" out &&
	grep "^  hazards: replace (git shows another history than git rolling reads)$" out &&
	HOME=$PWD/nohome GIT_CONFIG_GLOBAL=/dev/null \
		git rolling status --porcelain linux-rolling-stable >out &&
	grep "^ident linux-rolling-stable missing$" out &&
	grep "^hazard linux-rolling-stable replace$" out
'

test_expect_success 'a branch that cannot be advanced is reported, exit 0' '
	cd tree &&
	git branch broken linux-rolling-stable &&
	git config rolling.broken.policy stable &&
	git config rolling.broken.releasePattern "$(git config rolling.linux-rolling-stable.releasePattern)" &&
	git config rolling.broken.mainlinePattern "$(git config rolling.linux-rolling-stable.mainlinePattern)" &&
	git update-ref refs/heads/broken $(git commit-tree -p broken -m foreign broken^{tree}) &&
	git rolling status broken >out &&
	grep "^  cannot advance: .* is neither a rolling merge nor a release commit" out
'

test_expect_success 'before any series qualifies: advance stays on its series, status says so' '
	stable_tree_linux early &&
	cd early &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	stable_tree_replay . $(stable_tree_week_of . v5.19.2) &&
	git tag -d v6.0-rc1 &&
	git rolling init -q --at v5.19.1 early &&
	git rolling status early >out &&
	grep "^  waiting: no series qualifies under the policy yet$" out &&
	! grep "next switch" out &&
	git rolling status --porcelain early >out &&
	git rolling advance --dry-run --porcelain early >dry &&
	awk "{ print \$1, \$2, \$4, \$5, \$6, \$7 }" dry >expect &&
	grep "^step " out >actual &&
	test_cmp expect actual &&
	test_line_count = 1 actual
'

test_expect_success 'the next series is the one mainline works on before it has a release' '
	cd early &&
	stable_tree_replay . $(stable_tree_week_of . v6.0-rc1) &&
	git rolling advance -q early &&
	test -z "$(git tag -l "v6.0.*")" &&
	git rolling status early >out &&
	grep "^  next switch: 6.0 becomes the stable series when it has a point release and mainline tags a pre-release of the series after it$" out
'

test_expect_success 'an unconfigured branch is an error' '
	cd tree &&
	test_expect_code 128 git rolling status master 2>err &&
	grep "^fatal: " err
'

test_done
