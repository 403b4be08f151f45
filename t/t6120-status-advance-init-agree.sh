#!/bin/sh

test_description='status, advance --dry-run and init read one plan

status --json, advance --dry-run --porcelain and the release a new
branch starts at come from the same model of where a branch stands
(lib/branch-plan.c).  For each preset, at moments spread over its
release history: status names the steps and merge ids advance --dry-run
prints, a branch created now by init starts at the release advance then
brings the older branch to, and after that advance status has nothing
left to do.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh

# agree_at WEEK BRANCH [INIT-OPTIONS...]: the three agree at WEEK.
agree_at () {
	week=$1 branch=$2 &&
	shift 2 &&
	stable_tree_replay . $week &&
	git rolling status --json "$branch" >status.json &&
	jq -r ".branches[0].steps[] | \"\(.release) \(.merge)\"" status.json >from-status &&
	git rolling advance --dry-run --porcelain "$branch" >dry &&
	awk "/^step / { print \$4, \$5 }" dry >from-advance &&
	test_cmp from-advance from-status &&
	if test -s from-status
	then
		expect=$(tail -n 1 from-status | cut -d" " -f1)
	else
		expect=$(jq -r ".branches[0].release" status.json)
	fi &&
	git rolling init -q "$@" fresh &&
	git rolling status --json fresh >fresh.json &&
	echo "$expect" >expect &&
	jq -r ".branches[0].release" fresh.json >actual &&
	test_cmp expect actual &&
	git rolling advance -q "$branch" &&
	git rolling status --json "$branch" >after.json &&
	jq -r ".branches[0].release, (.branches[0].steps | length)" after.json >actual &&
	printf "%s\n0\n" "$expect" >expect &&
	test_cmp expect actual &&
	git branch -D -q fresh &&
	git config --remove-section rolling.fresh
}

# agree_over SCHEME [INIT-OPTIONS...]: a branch made a third of the way
# through the scheme's history, then the three compared at three
# moments after it.
agree_over () {
	scheme=$1 &&
	shift &&
	stable_tree_$scheme tree-$scheme-$# &&
	cd tree-$scheme-$# &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	weeks=$(stable_tree_weeks .) &&
	start=$((weeks / 3)) &&
	stable_tree_replay . $start &&
	git rolling init -q "$@" r &&
	step=$(( (weeks - start) / 3 )) &&
	week=$start &&
	moments=0 &&
	while test $week -lt $weeks
	do
		week=$((week + step)) &&
		test $week -le $weeks || week=$weeks
		agree_at $week r "$@" || return 1
		moments=$((moments + 1))
	done &&
	test $moments -ge 3
}

# make test compares on three presets: Linux (minor series), systemd (one
# number) and QEMU (series whose major number moves on: 1.7 -> 8.0); make
# test-long on the other presets too.  Each takes a tree of its own and
# three advances, a CPU-second and a half.
for scheme in linux systemd qemu
do
	test_expect_success "$scheme: status, advance --dry-run and init agree" "
		agree_over $scheme --preset $scheme
	"
done
for scheme in git python postgresql
do
	test_expect_success EXPENSIVE "$scheme: status, advance --dry-run and init agree" "
		agree_over $scheme --preset $scheme
	"
done

test_expect_success 'linux lts: status, advance --dry-run and init agree' '
	agree_over linux --preset linux --lts --series "5.19 6.1 6.6"
'

test_expect_success 'the branch moved: each moment made steps' '
	cd tree-linux-2 &&
	test $(git rev-list --first-parent --merges r | wc -l) -ge 3
'

test_expect_success 'the JSON document says what the human format says' '
	cd tree-systemd-2 &&
	stable_tree_replay . $(stable_tree_weeks .) &&
	git rolling status r >human &&
	git rolling status --json r >status.json &&
	sed -n "s/^  next switch: //p" human >expect &&
	test_line_count = 1 expect &&
	jq -r ".branches[0].next_switch.text" status.json >actual &&
	test_cmp expect actual &&
	jq -r ".branches[0] | .name, .policy, .series, .release, .tip, .problem, .ident_missing" \
		status.json >actual &&
	git rolling status --porcelain r >porcelain &&
	set -- $(grep "^branch " porcelain) &&
	printf "%s\n" r stable "$4" "$5" "$6" null false >expect &&
	test_cmp expect actual
'

test_expect_success 'status --json and --porcelain cannot be used together' '
	cd tree-linux-2 &&
	test_must_fail git rolling status --json --porcelain 2>err &&
	grep "^fatal: options .--porcelain. and .--json. cannot be used together" err
'

test_done
