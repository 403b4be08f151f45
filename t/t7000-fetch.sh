#!/bin/sh

test_description='git rolling fetch: nothing unverified ever reaches a ref

A maintainer repository advances a rolling branch week by week and
publishes it to a bare server; a consumer follows it over file:// with
git rolling fetch.  Each weekly fetch verifies the new steps since the tip
verified last time.  A server that injects a commit, publishes an evil
merge, rewinds or rewrites the branch, or forges a release tag is refused:
the consumer'"'"'s refs are exactly as before and nothing the server sent
is left in the repository at all.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

# What publish (lib-fetch.sh) pushes, without a new week.
push_all () {
	git -C upstream push -q --force server "refs/tags/*:refs/tags/*" \
		"refs/heads/$BRANCH:refs/heads/$BRANCH" 2>push.err
}

# short ID [REPO]: ID abbreviated as git abbreviates it in REPO (default:
# the consumer), as every id git rolling shows people.
short () {
	git -C "${2:-consumer}" rev-parse --short "$1"
}

server_tip () {
	git --git-dir=server.git rev-parse "refs/heads/$BRANCH"
}

# The consumer's refs, to prove that a refused fetch changed none.
snapshot () {
	git -C consumer for-each-ref --format="%(objectname) %(refname)" >"$1"
}

# refused <file-of-refs-before> <object...>: the refs are as before,
# the objects the server sent are not in the repository at all (not
# even unreachable), and no quarantine is left.
refused () {
	snapshot refs.after &&
	test_cmp "$1" refs.after &&
	shift &&
	for object
	do
		test_must_fail git -C consumer cat-file -e "$object" || return 1
	done &&
	git -C consumer fsck --no-progress --no-dangling 2>fsck.err &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
}

# The tags a fetch must bring: the base's and each merged release's.
needed_tags () {
	git --git-dir=server.git log --first-parent --format=%s "$1" |
	sed -n "s/^Merge //p" >needed.raw &&
	git --git-dir=server.git describe --exact-match --abbrev=0 \
		"$(git --git-dir=server.git rev-list --first-parent --max-parents=1 -n 1 "$1")" >>needed.raw &&
	sort -u needed.raw
}

test_expect_success 'setup: a maintainer, a server, a consumer following it' '
	setup_upstream &&
	push_all &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init --follow origin/$BRANCH --preset linux >out &&
	grep "^following origin/$BRANCH" out &&
	echo $BRANCH >expect &&
	git -C consumer config --get-all rolling.remote.origin.branches >actual &&
	test_cmp expect actual &&
	git -C consumer rolling init -q --follow origin/$BRANCH &&
	git -C consumer config --get-all rolling.remote.origin.branches >actual &&
	test_cmp expect actual
'

test_expect_success 'init --follow: more branches, and mistakes that change nothing' '
	git init -q scratch &&
	git -C scratch remote add up "$TRASH_DIRECTORY/server.git" &&
	git -C scratch config remote.up/nested.url "$TRASH_DIRECTORY/server.git" &&
	git -C scratch rolling init -q --follow up/one --preset systemd --signatures &&
	git -C scratch rolling init -q --follow up/two &&
	git -C scratch rolling init -q --follow up/one &&
	git -C scratch rolling init -q --follow up/nested/three &&
	printf "%s\n" one two >expect &&
	git -C scratch config --get-all rolling.remote.up.branches >actual &&
	test_cmp expect actual &&
	echo three >expect &&
	git -C scratch config --get-all rolling.remote.up/nested.branches >actual &&
	test_cmp expect actual &&
	# the longest remote name wins whatever the order of the configuration
	git -C scratch config remote.down/nested.url "$TRASH_DIRECTORY/server.git" &&
	git -C scratch config remote.down.url "$TRASH_DIRECTORY/server.git" &&
	git -C scratch rolling init -q --follow down/nested/four &&
	echo four >expect &&
	git -C scratch config --get-all rolling.remote.down/nested.branches >actual &&
	test_cmp expect actual &&
	test_must_fail git -C scratch config rolling.remote.down.branches &&
	test "$(git -C scratch config rolling.remote.up.signatures)" = true &&
	git -C scratch config rolling.remote.up.releasePattern >actual &&
	grep "?<major>" actual &&
	cp scratch/.git/config config.before &&
	test_expect_code 128 git -C scratch rolling init --follow up/bad --release-pattern "(" \
		--mainline-pattern x 2>err &&
	grep "^fatal: --release-pattern: " err &&
	test_expect_code 128 git -C scratch rolling init --follow nowhere/branch 2>err &&
	grep "^fatal: .nowhere/branch. is not <remote>/<branch> of a configured remote" err &&
	test_expect_code 128 git -C scratch rolling init --follow up/x extra 2>err &&
	grep "^fatal: --follow takes no <branch>" err &&
	test_expect_code 128 git -C scratch rolling init --signatures branch 2>err &&
	grep "^fatal: --signatures goes with --follow" err &&
	test_cmp config.before scratch/.git/config
'

test_expect_success 'the first fetch verifies the whole chain and brings only the tags it needs' '
	publish 14 &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: [0-9]* steps* from base v5.19.2 " out &&
	grep "^origin/$BRANCH: verified$" out &&
	grep "^origin/$BRANCH: verified for the first time at " out &&
	tip=$(server_tip) &&
	test "$(git -C consumer rev-parse refs/remotes/origin/$BRANCH)" = "$tip" &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$tip" &&
	needed_tags $BRANCH >expect &&
	git -C consumer tag -l >actual &&
	test_cmp expect actual &&
	for tag in $(cat expect)
	do
		test "$(git -C consumer rev-parse refs/tags/$tag)" = \
			"$(git --git-dir=server.git rev-parse refs/tags/$tag)" || return 1
	done &&
	git -C consumer reflog show --format=%gs refs/rolling/verified/origin/$BRANCH >reflog &&
	grep "^rolling fetch origin: verified v" reflog &&
	git -C consumer fsck --no-progress &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
'

test_expect_success 'a fetch with nothing new changes nothing' '
	snapshot before &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: up to date at " out &&
	snapshot after &&
	test_cmp before after
'

# The weekly fetches, from week 15 to six weeks before the end of the
# time line.  What each week's fetch brings follows from the time line
# alone (fetch_plan): "none" when the stable target does not move, "step"
# when it moves within its series, "switch <X> -> <Y>" when it moves to
# another series.  make test fetches a sample of the weeks (the first,
# the last three, and every week that is not a step, with the week
# before it, so that it is met from the week before, as every week meets
# it; the runs in between catch up over several weeks, a step each) and
# checks that it met every kind and every switch of the time line; make test-long fetches every week,
# on a copy, and checks that each fetch brought what the plan says.

# fetch_plan <first> <last>: "<week> <kind>" for the weeks <first> to
# <last> in plan/kinds.
fetch_plan () {
	(cd upstream && timeline_refs ../plan "$2") &&
	expected_weekly_targets "" plan/*.refs >plan/targets &&
	awk -v first="$1" -v last="$2" '
		function series(t) {
			sub(/^v/, "", t)
			sub(/\.[0-9]*$/, "", t)
			return t
		}
		{ w = $1 - 1000 }
		w >= first && w <= last {
			if ($2 == prev)
				kind = "none"
			else if (series($2) == series(prev))
				kind = "step"
			else
				kind = "switch " series(prev) " -> " series($2)
			print w, kind
		}
		{ prev = $2 }
	' plan/targets >plan/kinds
}

# fetch_sample: the weeks of plan/kinds that make test fetches.
fetch_sample () {
	awk '
		{ w[NR] = $1; k = $0; sub(/^[^ ]* /, "", k); kind[NR] = k }
		END {
			for (i = 1; i <= NR; i++)
				if (i == 1 || i > NR - 3 || kind[i] != "step" ||
				    (i < NR && kind[i + 1] != "step"))
					print w[i]
		}
	' plan/kinds
}

# weekly_fetches <weeks-file>: publish each week of the file and fetch it;
# the remote-tracking and verified refs are the server's tip, and the
# fetch names the steps it verified.  Appends "<week> <kind>" of what
# each fetch brought, from the subjects of the tips, to kinds.seen.
weekly_fetches () {
	new=$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH) &&
	now=$(git -C consumer log -1 --format=%s $new) &&
	while read week
	do
		old=$new &&
		publish $week &&
		git -C consumer rolling fetch origin >out &&
		new=$(server_tip) &&
		git -C consumer rev-parse refs/remotes/origin/$BRANCH \
			refs/rolling/verified/origin/$BRANCH >tips &&
		printf "%s\n" $new $new >expect &&
		test_cmp expect tips &&
		if test "$old" != "$new"
		then
			git -C consumer log --first-parent --format=%s $old..$new >steps &&
			n=$(wc -l <steps) &&
			grep "^origin/$BRANCH: $n steps* since " out &&
			grep "^origin/$BRANCH: updated $(short $old)..$(short $new)$" out &&
			was=$now &&
			read now <steps &&
			echo "$week $was -> $now" >>kinds.seen
		else
			echo "$week none" >>kinds.seen
		fi || { echo "week $week"; cat out; return 1; }
	done <"$1" &&
	awk '
		# "<week> Merge vX.Y.Z -> Merge vX.Y.Z", or "Linux X.Y.Z" for
		# a release commit
		function series(s) {
			sub(/^v/, "", s)
			sub(/\.[0-9]*$/, "", s)
			return s
		}
		$2 == "none" { print; next }
		series($3) == series($NF) { print $1, "step"; next }
		{ print $1, "switch " series($3) " -> " series($NF) }
	' kinds.seen >kinds
}

# After the weekly fetches: both series were merged, the consumer has
# exactly the tags the steps need, and the chain verifies.
fetched_all () {
	git -C consumer log --first-parent --format=%s origin/$BRANCH >subjects &&
	grep "^Merge v6.0" subjects && grep "^Merge v5.19" subjects &&
	needed_tags $BRANCH >expect &&
	git -C consumer tag -l | sort >actual &&
	test_cmp expect actual &&
	git -C consumer rolling verify --preset linux origin/$BRANCH
}

test_expect_success 'the plan of the weekly fetches has steps and switches' '
	last=$(($(stable_tree_weeks upstream) - 6)) &&
	fetch_plan 15 $last &&
	test $(sed -n "1s/ .*//p" plan/kinds) = 15 &&
	test $(sed -n "\$s/ .*//p" plan/kinds) = $last &&
	grep " step$" plan/kinds &&
	grep " switch 5.19 -> 6.0$" plan/kinds &&
	grep " switch 6.0 -> 6.1$" plan/kinds &&
	fetch_sample >plan/sample &&
	test $(head -n 1 plan/sample) = 15 &&
	test $(tail -n 1 plan/sample) = $last
'

# On a copy of the three repositories, the remotes pointed at the copy.
test_expect_success EXPENSIVE 'weekly fetches, every week: each brings what the plan says' '
	mkdir every &&
	cp -R upstream server.git consumer plan every/ &&
	git -C every/upstream remote set-url server "$TRASH_DIRECTORY/every/server.git" &&
	git -C every/consumer remote set-url origin "file://$TRASH_DIRECTORY/every/server.git" &&
	cd every &&
	sed "s/ .*//" plan/kinds >plan/every &&
	weekly_fetches plan/every &&
	test_cmp plan/kinds kinds &&
	fetched_all
'

test_expect_success 'weekly fetches verify each new step, across a series switch' '
	weekly_fetches plan/sample &&
	fetched_all &&
	join plan/sample plan/kinds >plan/sample.kinds &&
	test_cmp plan/sample.kinds kinds &&
	sed "s/^[0-9]* //" plan/kinds | sort -u >kinds.every &&
	sed "s/^[0-9]* //" kinds | sort -u >kinds.sample &&
	test_cmp kinds.every kinds.sample
'

test_expect_success 'an injected commit is refused and leaves nothing behind' '
	good=$(server_tip) &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $good" &&
	injected=$(git --git-dir=server.git commit-tree -p $good -m "Fix a typo" $good^{tree}) &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $injected &&
	snapshot before &&
	test_expect_code 1 git -C consumer rolling fetch origin >out 2>err &&
	grep "^error: origin/$BRANCH: $injected: injected: expected a rolling merge or a release commit" err &&
	grep "^origin/$BRANCH: FAILED (1 failure)$" out &&
	grep "^error: origin: 1 branch failed verification; nothing was updated" err &&
	refused before $injected
'

test_expect_success 'an evil merge of a new release is refused, and its tag not taken' '
	good=$(server_tip) &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $good" &&
	week=$(($(stable_tree_weeks upstream) - 5)) &&
	stable_tree_replay upstream $week &&
	push_all &&
	release=$(expected_stable_target upstream) &&
	test -z "$(git -C consumer tag -l $release)" &&
	evil_tree=$(cd upstream && tampered_tree $release) &&
	evil=$(git -C upstream commit-tree -p $good -p $release^{commit} -m "Merge $release" \
		$evil_tree) &&
	git -C upstream push -q server $evil:refs/heads/$BRANCH 2>push.err &&
	snapshot before &&
	test_expect_code 1 git -C consumer rolling fetch origin >out 2>err &&
	grep "^error: origin/$BRANCH: $evil: tree: expected tree " err &&
	refused before $evil $evil_tree &&
	test -z "$(git -C consumer tag -l $release)"
'

test_expect_success 'a rewind is refused; --allow-rewind takes it after a full verify' '
	good=$(server_tip) &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $good" &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $good~2 &&
	snapshot before &&
	test_expect_code 1 git -C consumer rolling fetch origin >out 2>err &&
	grep "^error: origin/$BRANCH: $good: since: expected $good on the first-parent chain of $(git --git-dir=server.git rev-parse $good~2), found not there: .* the branch was rewound or rewritten$" err &&
	refused before &&
	git -C consumer rolling fetch --allow-rewind origin >out 2>err &&
	grep "^warning: origin/$BRANCH: rewound: $(short $good) is not on the new chain; accepted after a full verify (--allow-rewind)$" err &&
	grep "^origin/$BRANCH: [0-9]* steps from base v5.19.2 " out &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$(git --git-dir=server.git rev-parse $good~2)" &&
	git -C consumer reflog show --format=%gs -1 refs/rolling/verified/origin/$BRANCH >reflog &&
	grep "^rolling fetch origin: rewound, verified in full, at v" reflog &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $good &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: 2 steps since " out
'

test_expect_success 'a rewritten branch (the same releases, other commits) is refused' '
	good=$(server_tip) &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $good" &&
	rewritten=$(cd server.git && GIT_DIR=. && export GIT_DIR && restack $good~4 $good~3 $good) &&
	test "$rewritten" != "$good" &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $rewritten &&
	snapshot before &&
	test_expect_code 1 git -C consumer rolling fetch origin 2>err &&
	grep "^error: origin/$BRANCH: $good: since: " err &&
	refused before $rewritten
'

# The one connection brings the tags git follows: those that point into
# the branch's history, as plain git fetch would.  Only the tags the
# steps need get a ref; no tag of another series comes, nor its history.
test_expect_success 'a first fetch among many releases: refs only for the tags the steps need, no other history' '
	git init -q fresh &&
	git -C fresh remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git --git-dir=server.git tag -l "v*.*.*" >all-releases &&
	test_line_count -gt 32 all-releases &&
	git -C fresh rolling fetch origin $BRANCH >out &&
	grep "^origin/$BRANCH: verified for the first time at $(short $(server_tip) fresh)$" out &&
	needed_tags $BRANCH >expect &&
	git -C fresh tag -l | sort >actual &&
	test_cmp expect actual &&
	git --git-dir=server.git tag --no-merged $BRANCH "v*.*.*" >elsewhere &&
	test_line_count -gt 0 elsewhere &&
	for tag in $(cat elsewhere)
	do
		test_must_fail git -C fresh cat-file -e $(git --git-dir=server.git rev-parse refs/tags/$tag) &&
		test_must_fail git -C fresh cat-file -e $(git --git-dir=server.git rev-parse $tag^{commit}) ||
		return 1
	done &&
	git --git-dir=server.git rev-list --objects $BRANCH | cut -d" " -f1 >expect.objects &&
	git --git-dir=server.git for-each-ref --merged $BRANCH --format="%(objectname) %(objecttype)" refs/tags |
		sed -n "s/ tag\$//p" >>expect.objects &&
	sort -u expect.objects >expect &&
	git -C fresh cat-file --batch-all-objects --batch-check="%(objectname)" | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'lightweight release tags: a first and a weekly fetch' '
	STABLE_LIGHTWEIGHT_TAGS=1 STABLE_MAINLINE=$VERIFY_MAINLINE stable_tree_linux light &&
	stable_tree_replay light 11 &&
	git -C light rolling init -q --preset linux $BRANCH &&
	stable_tree_replay light 12 &&
	git -C light rolling advance -q &&
	test "$(git -C light cat-file -t refs/tags/v5.19.2)" = commit &&
	git init -q light-consumer &&
	git -C light-consumer remote add origin "file://$TRASH_DIRECTORY/light" &&
	git -C light-consumer rolling fetch origin $BRANCH >out &&
	grep "^origin/$BRANCH: 1 step from base v5.19.2 " out &&
	test "$(git -C light-consumer rev-parse refs/tags/v5.19.2)" = "$(git -C light rev-parse v5.19.2)" &&
	stable_tree_replay light 13 &&
	git -C light rolling advance -q &&
	git -C light-consumer rolling fetch origin $BRANCH >out &&
	grep "^origin/$BRANCH: 1 step since " out &&
	test "$(git -C light-consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git -C light rev-parse $BRANCH)"
'

test_expect_success 'fetch names what it cannot do' '
	test_expect_code 128 git -C consumer rolling fetch nowhere 2>err &&
	grep "^fatal: .nowhere. is not a configured remote" err &&
	test_expect_code 128 git -C consumer rolling fetch origin no-such-branch 2>err &&
	grep "^fatal: couldn.t find remote ref refs/heads/no-such-branch$" err &&
	git -C consumer remote add other "$TRASH_DIRECTORY/server.git" &&
	test_expect_code 128 git -C consumer rolling fetch other 2>err &&
	grep "^fatal: no branches to fetch: name them, or follow them with git rolling init --follow other/<branch>" err &&
	test_expect_code 129 git -C consumer rolling fetch 2>err &&
	grep "^usage: git rolling fetch" err &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
'

# Where a ref goes there may be a directory: git removes it when it
# holds only empty directories, and refuses when refs are below it.
test_expect_success REFFILES 'empty directories where a ref goes are removed; refs below one are not' '
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" emptydirs &&
	git -C emptydirs rolling init -q --follow origin/$BRANCH &&
	mkdir -p emptydirs/.git/refs/rolling/verified/origin/$BRANCH/a/b &&
	git -C emptydirs rolling fetch -q origin &&
	test "$(git -C emptydirs rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)" &&
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" refsbelow &&
	git -C refsbelow rolling init -q --follow origin/$BRANCH &&
	git -C refsbelow update-ref refs/rolling/verified/origin/$BRANCH/kept HEAD &&
	test_expect_code 128 git -C refsbelow rolling fetch -q origin 2>err &&
	grep "^fatal: cannot update refs/rolling/verified/origin/$BRANCH: there is a directory in its place (.*: refs below it exist)" err &&
	git -C refsbelow rev-parse refs/rolling/verified/origin/$BRANCH/kept
'

# git fetch moves what a symbolic tracking ref names, and keeps it
# symbolic.
test_expect_success 'a symbolic tracking ref: its target moves, it stays symbolic' '
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" symbolic &&
	git -C symbolic rolling init -q --follow origin/$BRANCH &&
	git -C symbolic update-ref refs/remotes/origin/target refs/remotes/origin/$BRANCH~1 &&
	git -C symbolic symbolic-ref refs/remotes/origin/$BRANCH refs/remotes/origin/target &&
	git -C symbolic rolling fetch -q origin &&
	test "$(git -C symbolic symbolic-ref refs/remotes/origin/$BRANCH)" = refs/remotes/origin/target &&
	test "$(git -C symbolic rev-parse refs/remotes/origin/target)" = \
		"$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)" &&
	test "$(git -C symbolic rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)"
'

# What the server says reaches the terminal raw, through git, as git
# prints it: an ESC[8m there must not conceal what fetch says after it.
test_expect_success PERL,SCRIPT 'server text on the terminal cannot hide what fetch says after it' '
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" tty &&
	git -C tty rolling init -q --follow origin/$BRANCH &&
	cat >conceal <<-\EOF &&
	#!/bin/sh
	printf "remote: \033[8m" >&2
	exec git-upload-pack "$@"
	EOF
	chmod +x conceal &&
	git -C tty config remote.origin.uploadpack "\"$TRASH_DIRECTORY/conceal\"" &&
	script -qec "git -C tty rolling fetch origin" /dev/null >typescript &&
	grep -a "verified" typescript &&
	# between the server'"'"'s ESC[8m and fetch'"'"'s first line, a reset
	cat >reset-before-ours.pl <<-\EOF &&
	local $/;
	my $text = <STDIN>;
	$text =~ /\e\[8m(.*?)origin\//s or exit 2;
	exit($1 =~ /\e\[0?m/ ? 0 : 1);
	EOF
	perl reset-before-ours.pl <typescript
'

# A fetch that fails after it made the directories of new refs removes
# them again: nothing of it is left.
test_expect_success REFFILES 'a failed fetch leaves no directory it made' '
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" dirs &&
	# whatever tags a git release'"'"'s clone brings: none, so that fetch needs them
	git -C dirs for-each-ref --format="delete %(refname)" refs/tags |
	git -C dirs update-ref --stdin &&
	git -C dirs rolling init -q --follow origin/$BRANCH &&
	test_path_is_missing dirs/.git/refs/rolling &&
	tag=$(git --git-dir=server.git log -1 --format=%s $BRANCH | sed "s/^Merge //") &&
	: >"dirs/.git/refs/tags/$tag.lock" &&
	test_expect_code 128 git -C dirs rolling fetch -q origin 2>err &&
	grep "cannot lock ref .refs/tags/$tag." err &&
	rm "dirs/.git/refs/tags/$tag.lock" &&
	test_path_is_missing dirs/.git/refs/rolling &&
	git -C dirs for-each-ref refs/tags refs/rolling >refs &&
	test_must_be_empty refs &&
	git -C dirs rolling fetch -q origin &&
	test_path_is_dir dirs/.git/refs/rolling
'

# The release tags the steps need that the consumer has already (a
# plain clone brings them all) are no tags to create: the fetch takes
# them as they are.
test_expect_success 'the tags the steps need, fetched by git already, are kept' '
	git clone -q -b $BRANCH "file://$TRASH_DIRECTORY/server.git" tagged &&
	git -C tagged rolling init -q --follow origin/$BRANCH &&
	git -C tagged for-each-ref refs/tags >tags.before &&
	git -C tagged rolling fetch origin >out &&
	grep "^origin/$BRANCH: verified" out &&
	test "$(git -C tagged rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)" &&
	git -C tagged for-each-ref refs/tags >tags.after &&
	test_cmp tags.before tags.after
'

# A peeled line of packed-refs is a cache: one that says a decoy tag
# peels to the new release commit, planted without its tree, would make
# the view offer that commit as a have, and git take its history as
# present.  The fetch peels by reading the tag objects, as git does: the
# release'"'"'s tree comes (the merge'"'"'s tree is the same one).
test_expect_success REFFILES 'a lying peeled line in packed-refs decides nothing present' '
	good=$(server_tip) &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $good" &&
	prev=$(git --git-dir=server.git rev-parse $good^1) &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $prev &&
	git init -q lying &&
	git -C lying remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C lying rolling init -q --follow origin/$BRANCH &&
	git -C lying rolling fetch -q origin &&
	git -C lying tag -a -m decoy decoy $prev &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $good &&
	release=$(git --git-dir=server.git rev-parse $good^2) &&
	test_must_fail git -C lying cat-file -e $release &&
	git --git-dir=server.git cat-file commit $release >release-commit &&
	git -C lying hash-object -t commit -w --stdin <release-commit >planted &&
	echo $release >expect &&
	test_cmp expect planted &&
	test_must_fail git -C lying cat-file -e "$release^{tree}" &&
	git -C lying pack-refs --all &&
	sed "/ refs\/tags\/decoy$/{n;s/^^.*/^$release/;}" lying/.git/packed-refs >packed &&
	mv packed lying/.git/packed-refs &&
	grep -A1 " refs/tags/decoy$" lying/.git/packed-refs >decoy-lines &&
	grep "^^$release$" decoy-lines &&
	git -C lying rolling fetch origin >out &&
	grep "^origin/$BRANCH: verified$" out &&
	test "$(git -C lying rev-parse refs/rolling/verified/origin/$BRANCH)" = $good &&
	git -C lying cat-file -e "$release^{tree}" &&
	git -C lying rev-list --objects $good >/dev/null
'

# A branch set up with init --follow is what status shows there: the
# remote branch, the tip fetch verified (the release, as git log names
# it), where the remote-tracking ref is, and what the next fetch checks.
test_expect_success 'status shows the followed branches' '
	git -C consumer rolling status >out &&
	verified=$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH) &&
	release=$(git -C consumer log -1 --format=%s $verified | sed "s/^Merge //") &&
	cat >expect <<-EOF &&
	origin/$BRANCH: followed, verified by git rolling fetch origin
	  verified tip: $release ($(git -C consumer rev-parse --short $verified))
	  remote-tracking ref: at the verified tip
	  next fetch: verifies the steps after $release, then moves refs/remotes/origin/$BRANCH
	EOF
	test_cmp expect out &&
	git -C consumer rolling status --porcelain >out &&
	echo "follow origin/$BRANCH $verified $release $verified 0" >expect &&
	test_cmp expect out &&
	git init -q following &&
	git -C following remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C following rolling init -q --signatures --follow origin/$BRANCH &&
	git -C following rolling status >out &&
	grep "^  verified tip: none yet$" out &&
	grep "^  remote-tracking ref: none yet$" out &&
	grep "^  next fetch: verifies the whole branch from its base, release tag signatures included, then moves refs/remotes/origin/$BRANCH$" out &&
	git -C following fetch -q origin &&
	git -C following rolling status >out &&
	grep "^  remote-tracking ref: at $(git -C following rev-parse --short origin/$BRANCH), which no git rolling fetch verified$" out &&
	git -C following rolling status --porcelain >out &&
	echo "follow origin/$BRANCH - - $(git -C following rev-parse origin/$BRANCH) 1" >expect &&
	test_cmp expect out
'

test_done
