#!/bin/sh

test_description='git rolling fetch: the quarantined git fetch runs in a view of the repository

The view (lib/fetch-view.c) is a git directory of its own inside the
quarantine, where the one git fetch of each run writes the refs it
fetched and the tags it followed, which no one else sees.  It is the
repository as git fetch sees it but for its refs: its packed-refs names
every ref of the repository, with the repository'"'"'s refs peeled as
packed-refs records them (of the release tags, the newest of each
series stands for the older), so that git fetch marks commits complete
and its connectivity check starts from them without reading the tag
objects, and follows no tag the repository has.  Proved with git'"'"'s
own traces: which pack offsets git read (GIT_TRACE_PACK_ACCESS,
against the offsets of the tag objects that git show-index lists), and
where git fetch ran (GIT_TRACE_SETUP).  The connectivity check still
refuses a pack that leaves out an object; the repository'"'"'s
configuration still applies as git reads it there (url.insteadOf,
includeIf on gitdir: and onbranch:, config.worktree, the user'"'"'s own
configuration), a relative remote path resolves from where git would
resolve it; and every shape of repository fetches in the view, with
one connection to the server: extensions, a partial clone, a shallow
clone, replace refs, alternates, a --no-tags clone.  A release tag
whose objects do not lead to its release (a missing object, a tree,
another commit, a packed-refs record that lies) is never a have: the
fetch follows the server'"'"'s tag or refuses, and moves no ref.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable
VERIFIED=refs/rolling/verified/origin/$BRANCH
SERVER_URL="file://$TRASH_DIRECTORY/server.git"

# fetched REPO: its verified ref is the server's branch.
fetched () {
	test "$(git -C "$1" rev-parse $VERIFIED)" = "$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)"
}

# in_view: the last traced fetch (GIT_TRACE_SETUP in trace) ran git fetch
# in the view, and nothing in the repository but git config.
in_view () {
	grep "setup: git_common_dir: .*/rolling-incoming-[^/]*/view\$" trace &&
	grep "built-in: git fetch .*--stdin" trace >fetches &&
	test_line_count = 1 fetches
}

# traced NAME ARGS...: git rolling fetch ARGS in NAME, traced into trace,
# through an upload-pack that counts its runs into connections.
traced () {
	t_repo=$1 &&
	shift &&
	rm -f "$TRASH_DIRECTORY/trace" "$TRASH_DIRECTORY/connections" &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" GIT_TRACE_SETUP="$TRASH_DIRECTORY/trace" \
		git -C "$t_repo" -c remote.origin.uploadpack="$COUNTING_UPLOAD_PACK" \
		rolling fetch "$@"
}

# one_connection: the last traced fetch connected to the server once.
one_connection () {
	echo 1 >expect.connections &&
	wc -l <connections | tr -d " " >actual.connections &&
	test_cmp expect.connections actual.connections
}

# consumer_copy NAME: a copy of the consumer, to fetch the next week in.
consumer_copy () {
	rm -rf "$1" &&
	cp -R consumer "$1"
}

# tag_offsets REPO: "<pack> <offset>" of each of REPO's packed tag objects, sorted.
tag_offsets () {
	git -C "$1" cat-file --batch-all-objects --batch-check="%(objecttype) %(objectname)" |
		sed -n "s/^tag //p" | sort >tag-oids &&
	test_line_count -gt 10 tag-oids &&
	for idx in "$1"/.git/objects/pack/*.idx
	do
		git show-index <"$idx" | sed "s/^/$(basename "$idx" .idx) /" || return 1
	done | sort -k3 | join -1 3 -2 1 -o 1.1,1.2,1.3 - tag-oids | sort -u >offsets-oids &&
	awk "{ print \$1, \$3, \$2 }" offsets-oids | sort -k2,2 >tag-oids-offsets &&
	cut -d" " -f1,2 offsets-oids
}

# read_offsets: "<pack> <offset> <times>" of each object git read
# (GIT_TRACE_PACK_ACCESS in access), sorted.
read_offsets () {
	awk "{ n = split(\$(NF - 1), part, \"/\"); pack = part[n]; sub(/\\.pack\$/, \"\", pack)
	       print pack, \$NF }" access | sort | uniq -c | awk "{ print \$2, \$3, \$1 }"
}

# tags_read_times: how many times each tag object was read: "<times>" a line.
tags_read_times () {
	read_offsets | awk "NR == FNR { tag[\$1 \" \" \$2] = 1; next }
			    (\$1 \" \" \$2) in tag { print \$3 }" tag-offsets -
}

test_expect_success 'setup: a consumer with its refs packed and its objects in one pack' '
	counting_upload_pack &&
	setup_upstream &&
	publish 12 &&
	git init -q consumer &&
	git -C consumer remote add origin "$SERVER_URL" &&
	git -C consumer rolling init -q --follow origin/$BRANCH --preset linux &&
	git -C consumer rolling fetch -q --no-signatures origin &&
	git -C consumer fetch -q origin "refs/tags/*:refs/tags/*" &&
	git -C consumer repack -q -a -d &&
	git -C consumer pack-refs --all &&
	git -C consumer rev-parse $VERIFIED >old &&
	publish 13 &&
	tag_offsets consumer >tag-offsets &&
	test_line_count -gt 10 tag-offsets
'

# Plain git fetch reads each tag object twice: marking its refs complete
# for the negotiation, and again in its connectivity check (a process of
# its own, git rev-list --all).
test_expect_success 'plain git fetch reads the tag objects twice (the trace sees them)' '
	consumer_copy plain &&
	rm -f access &&
	GIT_TRACE_PACK_ACCESS="$TRASH_DIRECTORY/access" git -C plain fetch -q --no-tags origin &&
	tags_read_times >times &&
	test_line_count -gt 10 times &&
	! grep -v "^2\$" times
'

# Through the view, neither reads a release tag object: they start from
# the commits of the newest releases, which git rolling read from their
# tag objects.  git fetch reads once each tag the server advertises that
# the repository has, to find the newest commit among them (fetch-pack'"'"'s
# cut-off), as it does for any fetch that follows tags.  The other tags
# are given as they are, and git reads them as in the repository: a
# peeled line of packed-refs is a cache that decides nothing (t7000).
test_expect_success 'the quarantined git fetch reads no release tag object twice' '
	consumer_copy view &&
	rm -f access &&
	GIT_TRACE_PACK_ACCESS="$TRASH_DIRECTORY/access" traced view -q --no-signatures origin &&
	fetched view &&
	in_view &&
	one_connection &&
	git -C view for-each-ref --format="%(objectname)" "refs/tags/v*.*.*" | sort >release-oids &&
	join -1 2 -2 1 -o 1.1,1.3 tag-oids-offsets release-oids | sort >release-offsets &&
	test_line_count -gt 1 release-offsets &&
	read_offsets | awk "NR == FNR { tag[\$1 \" \" \$2] = 1; next }
			    (\$1 \" \" \$2) in tag { print \$3 }" release-offsets - >times &&
	test_line_count -gt 1 times &&
	! grep -v "^1\$" times &&
	no_leftovers view
'

# The oracle: every ref but the symbolic ones at its own object (a tag
# unpeeled), but the release tags (vX.Y.Z, Z > 0: this tree has no 2.6
# era), which get the commit of the newest of their series vX.Y, peeled
# by git for-each-ref.
test_expect_success 'the view names every ref, the releases at the newest commit of their series' '
	consumer_copy listing &&
	git -C listing for-each-ref \
		--format="%(refname) %(objectname) %(if)%(*objectname)%(then)%(*objectname)%(else)%(objectname)%(end) %(symref)" >refs &&
	awk "
		NF == 4 { next }
		\$1 ~ /^refs\/tags\/v[0-9]+\.[0-9]+\.[1-9][0-9]*\$/ {
			n = split(substr(\$1, 11), v, \".\")
			series = v[1] \".\" v[2]
			if (!(series in newest) || v[3] + 0 > newest[series] + 0) {
				newest[series] = v[3]; oid[series] = \$3
			}
			release[\$1] = series
			next
		}
		{ print \$2, \$1 }
		END {
			for (r in release) { print oid[release[r]], r; releases++ }
			for (s in oid) series_nr++
			print releases, series_nr > \"counts\"
		}
	" refs | sort >expect &&
	read releases series_nr <counts &&
	test $releases -gt $series_nr &&
	fetch_seam transferred "cat \"\$(ls -d \"$TRASH_DIRECTORY\"/listing/.git/objects/rolling-incoming-*)/view/packed-refs\" >\"$TRASH_DIRECTORY/packed\"" \
		git -C listing rolling fetch -q --no-signatures origin &&
	head -n 1 packed >header &&
	echo "# pack-refs with: sorted " >expect.header &&
	test_cmp expect.header header &&
	sed 1d packed >actual.sorted &&
	LC_ALL=C sort -k2 actual.sorted >resorted &&
	test_cmp resorted actual.sorted &&
	sort actual.sorted >actual &&
	test_cmp expect actual
'

test_expect_success 'a server that leaves an object out of the pack is refused by the connectivity check' '
	consumer_copy hostile &&
	publish 14 &&
	new=$(git --git-dir=server.git rev-parse refs/heads/$BRANCH) &&
	release=$(git --git-dir=server.git rev-parse $new^2) &&
	test_must_fail git -C hostile cat-file -e $release &&
	printf "#!/bin/sh\n{ echo \"^%s\"; cat; } | \"\$@\"\n" $release >drop-hook &&
	printf "#!/bin/sh\nexec git -c uploadpack.packObjectsHook=\"'"'"'%s/drop-hook'"'"'\" upload-pack \"\$@\"\n" \
		"$TRASH_DIRECTORY" >dropping-upload-pack &&
	chmod +x drop-hook dropping-upload-pack &&
	git -C hostile config remote.origin.uploadpack "\"$TRASH_DIRECTORY/dropping-upload-pack\"" &&
	refs_and_logs hostile >before &&
	rm -f trace &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" GIT_TRACE_SETUP="$TRASH_DIRECTORY/trace" \
		test_expect_code 128 git -C hostile rolling fetch -q --no-signatures origin 2>err &&
	in_view &&
	grep "did not send all necessary objects" err &&
	grep "^fatal: git fetch from .origin. failed (exit status [0-9]*); nothing was updated$" err &&
	refs_and_logs hostile >after &&
	test_cmp before after &&
	test_must_fail git -C hostile cat-file -e $release &&
	no_leftovers hostile &&
	git -C hostile config --unset remote.origin.uploadpack &&
	git -C hostile rolling fetch -q --no-signatures origin &&
	fetched hostile
'

test_expect_success 'the repository configuration applies in the view: url.insteadOf' '
	consumer_copy rewritten &&
	git -C rewritten config remote.origin.url rolling-test:server.git &&
	git -C rewritten config "url.file://$TRASH_DIRECTORY/.insteadOf" rolling-test: &&
	traced rewritten -q --no-signatures origin &&
	in_view &&
	one_connection &&
	fetched rewritten
'

test_expect_success 'a relative remote path, fetched from a subdirectory, is the top level'"'"'s' '
	consumer_copy relative &&
	git -C relative config remote.origin.url ../server.git &&
	mkdir -p relative/sub/dir &&
	(cd relative/sub/dir && traced . -q --no-signatures origin) &&
	in_view &&
	fetched relative
'

# git run inside the git directory stays in the current directory, and
# resolves a relative path from there (the oracle: git ls-remote there).
test_expect_success 'a relative remote path, fetched from inside the git directory, is that directory'"'"'s' '
	consumer_copy insidegit &&
	git -C insidegit config remote.origin.url ../../../server.git &&
	(cd insidegit/.git/refs && git ls-remote origin refs/heads/$BRANCH) &&
	test_must_fail git -C insidegit ls-remote origin &&
	(cd insidegit/.git/refs && traced . -q --no-signatures origin) &&
	in_view &&
	fetched insidegit
'

# Named with GIT_DIR, as Git 3.0's safe.bareRepository=explicit wants.
test_expect_success 'a bare repository fetches in the view too' '
	git clone -q --bare consumer bare.git &&
	git --git-dir=bare.git config remote.origin.url "$SERVER_URL" &&
	git --git-dir=bare.git update-ref $VERIFIED $(cat old) &&
	git --git-dir=bare.git update-ref refs/remotes/origin/$BRANCH $(cat old) &&
	git -C consumer config --get-regexp "^rolling\\." >rolling-config &&
	while read key value
	do
		git --git-dir=bare.git config "$key" "$value" || return 1
	done <rolling-config &&
	(GIT_DIR=bare.git && export GIT_DIR && traced . -q --no-signatures origin) &&
	in_view &&
	one_connection &&
	test "$(git --git-dir=bare.git rev-parse $VERIFIED)" = \
		"$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)"
'

# The server's refs are listed before the configuration is read: a name
# that is no configured remote must not reach git, which would take
# host:path for ssh.
test_expect_success 'a name that is no configured remote is never fetched (no ssh to host:path)' '
	printf "#!/bin/sh\necho \"\$*\" >>\"%s/ssh-called\"\nexit 1\n" "$TRASH_DIRECTORY" >fake-ssh &&
	chmod +x fake-ssh &&
	rm -f ssh-called trace &&
	GIT_SSH="$TRASH_DIRECTORY/fake-ssh" GIT_TRACE="$TRASH_DIRECTORY/trace" \
		test_expect_code 128 git -C consumer rolling fetch somehost:repo 2>err &&
	grep "somehost:repo. is not a valid remote name" err &&
	! grep "built-in: git \(ls-remote\|fetch\)" trace &&
	test_path_is_missing ssh-called
'

# --- every shape of repository: the view is the repository'"'"'s equal ----

test_expect_success 'extensions.worktreeConfig: config.worktree applies in the view' '
	consumer_copy wtconfig &&
	git -C wtconfig config core.repositoryformatversion 1 &&
	git -C wtconfig config extensions.worktreeConfig true &&
	git -C wtconfig config remote.origin.url rolling-test:server.git &&
	git -C wtconfig config --worktree "url.file://$TRASH_DIRECTORY/.insteadOf" rolling-test: &&
	traced wtconfig -q --no-signatures origin &&
	in_view &&
	one_connection &&
	fetched wtconfig
'

test_expect_success 'includeIf gitdir: and onbranch: read as in the repository' '
	consumer_copy condinc &&
	git -C condinc config remote.origin.url rolling-test:server.git &&
	printf "[url \"file://%s/\"]\n\tinsteadOf = rolling-test:\n" "$TRASH_DIRECTORY" >condinc.cfg &&
	git -C condinc config "includeIf.gitdir:$TRASH_DIRECTORY/condinc/.git.path" \
		"$TRASH_DIRECTORY/condinc.cfg" &&
	traced condinc -q --no-signatures origin &&
	in_view &&
	one_connection &&
	fetched condinc &&

	consumer_copy onbranch &&
	git -C onbranch config remote.origin.url rolling-test:server.git &&
	branch=$(git -C onbranch symbolic-ref --short HEAD) &&
	git -C onbranch config "includeIf.onbranch:$branch.path" "$TRASH_DIRECTORY/condinc.cfg" &&
	traced onbranch -q --no-signatures origin &&
	in_view &&
	fetched onbranch
'

# The user'"'"'s configuration is read in the view as it is; where it has
# an includeIf gitdir: (which the view'"'"'s directory would not match) or
# a tagOpt, it is written into the view with the repository'"'"'s.
test_expect_success 'the user'"'"'s configuration: includeIf gitdir: and tagOpt read as in the repository' '
	consumer_copy globalinc &&
	git -C globalinc config remote.origin.url rolling-test:server.git &&
	cp "$HOME/.gitconfig" global-cond &&
	printf "[includeIf \"gitdir:%s/globalinc/.git\"]\n\tpath = %s/condinc.cfg\n" \
		"$TRASH_DIRECTORY" "$TRASH_DIRECTORY" >>global-cond &&
	GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/global-cond" traced globalinc -q --no-signatures origin &&
	in_view &&
	one_connection &&
	fetched globalinc &&

	consumer_copy globaltags &&
	git -C globaltags tag -l >tags.before &&
	cp "$HOME/.gitconfig" global-tagopt &&
	printf "[remote \"origin\"]\n\ttagOpt = --no-tags\n" >>global-tagopt &&
	GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/global-tagopt" traced globaltags -q --no-signatures origin &&
	in_view &&
	one_connection &&
	fetched globaltags &&
	git -C globaltags tag -l >tags.after &&
	comm -13 tags.before tags.after >tags.new &&
	test_line_count -gt 0 tags.new
'

test_expect_success 'replace refs (not used: GIT_NO_REPLACE_OBJECTS): in the view' '
	consumer_copy replaced &&
	one=$(echo one | git -C replaced hash-object -w --stdin) &&
	two=$(echo two | git -C replaced hash-object -w --stdin) &&
	git -C replaced replace $one $two &&
	GIT_NO_REPLACE_OBJECTS=1 traced replaced -q --no-signatures origin &&
	in_view &&
	one_connection &&
	fetched replaced
'

test_expect_success 'a partial clone (promisor remote): in the view, with the filter, the pack marked' '
	git --git-dir=server.git config uploadpack.allowFilter true &&
	git clone -q --no-checkout --filter=blob:none "$SERVER_URL" partial &&
	git -C partial update-ref refs/remotes/origin/$BRANCH $(cat old) &&
	git -C partial rolling init -q --follow origin/$BRANCH --preset linux &&
	git -C partial update-ref $VERIFIED $(cat old) &&
	ls partial/.git/objects/pack/*.promisor >promisors.before &&
	publish 15 &&
	traced partial -q --no-signatures origin &&
	in_view &&
	one_connection &&
	fetched partial &&
	ls partial/.git/objects/pack/*.promisor >promisors.after &&
	test $(wc -l <promisors.after) -gt $(wc -l <promisors.before) &&
	new=$(git --git-dir=server.git rev-parse refs/heads/$BRANCH) &&
	git -C partial rev-list --objects --missing=print $(cat old)..$new >objects &&
	grep "^?" objects
'

test_expect_success 'a shallow clone: in the view, its shallow file as it was' '
	git clone -q --depth 3 --no-checkout -b $BRANCH "$SERVER_URL" shallow &&
	test -s shallow/.git/shallow &&
	cp shallow/.git/shallow shallow.before &&
	tip=$(git -C shallow rev-parse refs/remotes/origin/$BRANCH) &&
	git -C shallow rolling init -q --follow origin/$BRANCH --preset linux &&
	git -C shallow update-ref $VERIFIED $tip &&
	publish 16 &&
	traced shallow -q --no-signatures origin &&
	in_view &&
	one_connection &&
	fetched shallow &&
	test_cmp shallow.before shallow/.git/shallow
'

# A commit below the shallow boundary, which the server would take for
# one the clone has unless told of the boundary, is sent: then the
# verification, not the transfer, refuses the merge that names it.
test_expect_success 'a shallow clone: git fetch tells the server of its boundary' '
	deep=$(git --git-dir=server.git rev-parse "$BRANCH~6") &&
	test_must_fail git -C shallow cat-file -e $deep &&
	top=$(git --git-dir=server.git rev-parse $BRANCH) &&
	odd=$(git --git-dir=server.git commit-tree -p $top -p $deep -m "Merge an old one" $top^{tree}) &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $odd &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $top" &&
	refs_and_logs shallow >before &&
	test_expect_code 1 traced shallow -q --no-signatures origin 2>err &&
	in_view &&
	one_connection &&
	grep "^error: origin/$BRANCH: $odd" err &&
	refs_and_logs shallow >after &&
	test_cmp before after &&
	test_cmp shallow.before shallow/.git/shallow
'

test_expect_success 'alternates of its own: in the view, their refs listed by git' '
	git clone -q --shared --no-checkout -o mirror consumer borrower &&
	git -C borrower remote add origin "$SERVER_URL" &&
	git -C borrower update-ref refs/remotes/origin/$BRANCH $(cat old) &&
	git -C borrower rolling init -q --follow origin/$BRANCH --preset linux &&
	traced borrower -q --no-signatures origin &&
	in_view &&
	one_connection &&
	grep "run_command: .*for-each-ref" trace &&
	fetched borrower
'

# git fetch settings that would write elsewhere, fetch more or run
# something: fetch.prune and fetch.pruneTags (the latter adds the
# refspec of every tag, which would bring the history of every series),
# a reference-transaction hook (git would run it for the view'"'"'s refs;
# in a reftable repository git writes the repository'"'"'s own refs, and runs
# it for those, as for any ref git updates), a bundle URI (a connection of its own, git 2.41 and later).
# GIT_ALTERNATE_OBJECT_DIRECTORIES reaches the git that writes into the
# quarantine after the quarantine itself, as git'"'"'s own receive-pack
# does: what the consumer has there is not sent again, and stays there.
test_expect_success 'GIT_ALTERNATE_OBJECT_DIRECTORIES: what is there is not fetched again' '
	git init -q envalt &&
	git -C envalt remote add origin "$SERVER_URL" &&
	git -C envalt rolling init -q --follow origin/$BRANCH &&
	old=$(cat old) &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES="$TRASH_DIRECTORY/consumer/.git/objects" \
		git -C envalt rolling fetch -q --no-signatures origin &&
	test "$(git -C envalt rev-parse $VERIFIED)" = "$(git --git-dir=server.git rev-parse $BRANCH)" &&
	test_must_fail git -C envalt cat-file -e $old &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES="$TRASH_DIRECTORY/consumer/.git/objects" \
		git -C envalt fsck --connectivity-only --no-dangling --no-progress
'

test_expect_success 'fetch.prune, fetch.pruneTags, hooks and fetch.bundleURI change nothing' '
	other=$(echo "another series" | git --git-dir=server.git commit-tree $(git --git-dir=server.git rev-parse $BRANCH^{tree})) &&
	git --git-dir=server.git tag -a -m "Linux 9.9.1" v9.9.1 $other &&
	test_when_finished "git --git-dir=server.git tag -d v9.9.1" &&
	consumer_copy settings &&
	git -C settings tag -l >tags.before &&
	git -C settings config fetch.prune true &&
	git -C settings config fetch.pruneTags true &&
	git -C settings config remote.origin.prune true &&
	git -C settings config fetch.bundleURI "file://$TRASH_DIRECTORY/no-such.bundle" &&
	mkdir hooks &&
	printf "#!/bin/sh\necho \"\$*\" >>\"%s/hook-ran\"\ncat >>\"%s/hook-ran\"\n" \
		"$TRASH_DIRECTORY" "$TRASH_DIRECTORY" >hooks/reference-transaction &&
	chmod +x hooks/reference-transaction &&
	git -C settings config core.hooksPath "$TRASH_DIRECTORY/hooks" &&
	traced settings --no-signatures origin 2>err &&
	in_view &&
	one_connection &&
	fetched settings &&
	if test "$(test_ref_format settings)" = reftable
	then
		test "$(grep -c "^committed" hook-ran)" = 1 &&
		! grep -e rolling-fetch -e FETCH_HEAD hook-ran
	else
		test_path_is_missing hook-ran
	fi &&
	! grep -i bundle err &&
	git -C settings tag -l >tags.after &&
	comm -23 tags.before tags.after >tags.gone &&
	test_must_be_empty tags.gone &&
	git --git-dir=server.git tag --no-merged $BRANCH | sort >not-merged &&
	comm -23 not-merged tags.before >not-here &&
	for tag in $(cat not-here)
	do
		git -C consumer cat-file -e $(git --git-dir=server.git rev-parse $tag^{}) 2>/dev/null ||
		echo $tag || return 1
	done >elsewhere &&
	grep -x v9.9.1 elsewhere &&
	for tag in $(cat elsewhere)
	do
		test_must_fail git -C settings cat-file -e $(git --git-dir=server.git rev-parse refs/tags/$tag) &&
		test_must_fail git -C settings cat-file -e $(git --git-dir=server.git rev-parse $tag^{}) ||
		return 1
	done
'

test_expect_success 'a clone made with --no-tags (remote.origin.tagOpt): the tags the steps need come' '
	git clone -q --no-tags --no-checkout -b $BRANCH "$SERVER_URL" notags &&
	test "$(git -C notags config remote.origin.tagOpt)" = --no-tags &&
	git -C notags update-ref refs/remotes/origin/$BRANCH $(cat old) &&
	git -C notags rolling init -q --follow origin/$BRANCH --preset linux &&
	git -C notags update-ref $VERIFIED $(cat old) &&
	traced notags -q --no-signatures origin &&
	in_view &&
	one_connection &&
	fetched notags &&
	git -C notags tag -l >tags &&
	test_line_count -gt 0 tags
'

# broken_release HOW: a copy of the consumer, "broken-HOW", whose tag of
# $mid (a release of the server's new steps, which the consumer lacks)
# does not lead to the server's release commit; HOW: its object is
# missing ($broken its name; a commit, so that no ref format records a
# peeled value beside it), it names a tree, it leads to another
# commit ($old) by its objects, or packed-refs says it peels to the
# server's release commit (which the consumer lacks) while its objects
# lead to $old.  The fetch keeps the view's packed-refs in view-refs.
broken_release () {
	consumer_copy broken-$1 &&
	case $1 in
	missing)
		broken=$(git -C broken-$1 commit-tree -p $(cat old) -m "not here" $(cat old)^{tree}) &&
		git -C broken-$1 update-ref refs/tags/$mid $broken &&
		rm broken-$1/.git/objects/$(echo $broken | cut -c1-2)/$(echo $broken | cut -c3-) ;;
	tree)
		git -C broken-$1 tag $mid $(cat old)^{tree} ;;
	other|peeled)
		git -C broken-$1 tag -a -m "Linux $mid" $mid $(cat old) ;;
	esac &&
	if test $1 = peeled
	then
		git -C broken-$1 pack-refs --all &&
		sed "/ refs\/tags\/$mid\$/{n;s/^\^.*/^$real/;}" broken-$1/.git/packed-refs >packed &&
		grep -A1 " refs/tags/$mid\$" packed >lie &&
		test "$(sed -n "2s/^^//p" lie)" = $real &&
		mv packed broken-$1/.git/packed-refs
	fi &&
	{ git -C broken-$1 rev-parse refs/tags/$mid && refs_and_logs broken-$1; } >before 2>/dev/null
}

# fetch_broken HOW STATUS: its fetch exits STATUS, having said why in
# err, changed no ref and no reflog, and named the release in the view
# only at a commit the consumer has, never at the server's release
# commit (the consumer lacks it) nor at a missing object or a tree.
fetch_broken () {
	rm -f view-refs &&
	test_expect_code $2 fetch_seam transferred "cat \"\$(ls -d \"$TRASH_DIRECTORY\"/broken-$1/.git/objects/rolling-incoming-*)/view/packed-refs\" >\"$TRASH_DIRECTORY/view-refs\"" \
		git -C broken-$1 rolling fetch --no-signatures origin >out 2>err &&
	cat out err &&
	{ git -C broken-$1 rev-parse refs/tags/$mid && refs_and_logs broken-$1; } >after 2>/dev/null &&
	test_cmp before after &&
	grep "nothing was updated" err &&
	test_path_is_file view-refs &&
	sed -n "s/^\([0-9a-f]*\) refs\/tags\/$mid\$/\1/p" view-refs >have &&
	for oid in $(cat have)
	do
		test $oid != $real &&
		test "$(git -C broken-$1 cat-file -t $oid)" = commit || return 1
	done
}

# A release tag of the repository whose objects do not lead to its
# release is no "have" in the view: not named there at the commit it
# claims, nor at what it names.  One that leads nowhere (a missing
# object, a tree) is left out of the view, so git fetch follows the
# server'"'"'s tag, and the steps verify with it; the tag here then stays
# as it is and the fetch refuses to move the refs.
test_expect_success 'a release tag that leads nowhere is no have: the server'"'"'s tag comes, no ref moves' '
	mid=$(git --git-dir=server.git log --first-parent --format=%s $(cat old)..$BRANCH |
		sed -n "2s/^Merge //p") &&
	test -n "$mid" &&
	real=$(git --git-dir=server.git rev-parse refs/tags/$mid^{commit}) &&
	server_tag=$(git --git-dir=server.git rev-parse refs/tags/$mid) &&
	test_must_fail git -C consumer cat-file -e $real &&
	broken_release missing &&
	fetch_broken missing 128 &&
	grep "^warning: ignoring release tag .$mid.: object $broken is missing$" err &&
	test_must_be_empty have &&
	grep "^origin/$BRANCH: verified$" out &&
	git -C broken-missing cat-file -e $server_tag &&
	broken_release tree &&
	fetch_broken tree 128 &&
	grep "^warning: ignoring release tag .$mid.: it points to a tree, not a commit$" err &&
	test_must_be_empty have &&
	grep "^origin/$BRANCH: verified$" out &&
	git -C broken-tree cat-file -e $server_tag
'

# One that leads to another commit is the release here: the server'"'"'s
# step that merges the server'"'"'s fails verification.  One whose
# packed-refs record says it peels to the server'"'"'s release commit while
# its objects lead elsewhere fails it too, and the view names it at the
# newest sound release of its series, not at a commit the consumer lacks.
test_expect_success 'a release tag that leads to another commit is no have of the server'"'"'s release: refused' '
	broken_release other &&
	fetch_broken other 1 &&
	grep "^error: origin/$BRANCH: [0-9a-f]*: tag: expected second parent $(git -C consumer rev-parse $(cat old)) ($mid), found second parent $real (not a release commit)$" err &&
	test_line_count = 1 have
'

test_expect_success REFFILES 'a release tag whose packed-refs record lies is no have: refused' '
	broken_release peeled &&
	fetch_broken peeled 1 &&
	grep "^error: origin/$BRANCH: [0-9a-f]*: tag: expected release tag $mid, as its objects say, found $mid: its objects lead to $(cat old), but packed-refs says $real$" err &&
	test_line_count = 1 have &&
	test_must_fail git -C broken-peeled cat-file -e $real
'

test_done
