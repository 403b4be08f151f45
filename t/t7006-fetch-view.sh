#!/bin/sh

test_description='git rolling fetch: the quarantined git fetch runs in a view of the repository

The view (lib/fetch-view.c) is a git directory with no ref, whose
configuration includes the repository'"'"'s and whose alternate refs are
the repository'"'"'s refs peeled as packed-refs records them (of the
release tags, the newest of each series): git fetch
then marks commits complete and its connectivity check starts from them,
without reading the tag objects.  Proved with git'"'"'s own traces: which
pack offsets git read (GIT_TRACE_PACK_ACCESS, against the offsets of the
tag objects that git show-index lists), and which alternate refs command
it ran (GIT_TRACE).  The connectivity check still refuses a pack that
leaves out an object; the repository'"'"'s configuration still applies
(url.insteadOf, a relative remote path from a subdirectory); and where
the view would not be the repository'"'"'s equal (extensions, a partial
clone, includeIf gitdir:, replace refs, grafts) git fetch runs in the
repository itself, as before, and still fetches.
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
	test "$(git -C "$1" rev-parse $VERIFIED)" = "$(git -C server.git rev-parse refs/heads/$BRANCH)"
}

# in_view / in_repository: which way the last traced fetch ran git fetch.
in_view () {
	grep "built-in: git fetch .*--stdin" trace &&
	grep "run_command: .*rolling_view_haves" trace
}

in_repository () {
	grep "built-in: git fetch .*--stdin" trace &&
	! grep "rolling_view_haves" trace
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
	done | sort -k3 | join -1 3 -2 1 -o 1.1,1.2 - tag-oids | sort -u
}

# read_offsets: "<pack> <offset>" of each object git read (GIT_TRACE_PACK_ACCESS
# in access), sorted.
read_offsets () {
	awk "{ n = split(\$(NF - 1), part, \"/\"); pack = part[n]; sub(/\\.pack\$/, \"\", pack)
	       print pack, \$NF }" access | sort -u
}

test_expect_success 'setup: a consumer with its refs packed and its objects in one pack' '
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

test_expect_success 'plain git fetch reads the tag objects (the trace sees them)' '
	consumer_copy plain &&
	rm -f access &&
	GIT_TRACE_PACK_ACCESS="$TRASH_DIRECTORY/access" git -C plain fetch -q --no-tags origin &&
	read_offsets >read &&
	comm -12 tag-offsets read >tags-read &&
	test_line_count -gt 10 tags-read
'

test_expect_success 'the quarantined git fetch reads no tag object packed-refs peels' '
	consumer_copy view &&
	rm -f access &&
	rm -f trace &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" GIT_TRACE_PACK_ACCESS="$TRASH_DIRECTORY/access" \
		git -C view rolling fetch -q --no-signatures origin &&
	fetched view &&
	in_view &&
	read_offsets >read &&
	comm -12 tag-offsets read >tags-read &&
	test_must_be_empty tags-read &&
	no_leftovers view
'

# The oracle: every ref, peeled by git for-each-ref, but of the release
# tags (vX.Y.Z, Z > 0: this tree has no 2.6 era) only the newest of each
# series vX.Y.
test_expect_success 'the view lists every ref once, peeled, and of the releases the newest per series' '
	consumer_copy listing &&
	git -C listing for-each-ref \
		--format="%(refname) %(if)%(*objectname)%(then)%(*objectname)%(else)%(objectname)%(end)" >refs &&
	awk "
		\$1 ~ /^refs\/tags\/v[0-9]+\.[0-9]+\.[1-9][0-9]*\$/ {
			n = split(substr(\$1, 11), v, \".\")
			series = v[1] \".\" v[2]
			if (!(series in newest) || v[3] + 0 > newest[series] + 0) {
				newest[series] = v[3]; oid[series] = \$2
			}
			releases++
			next
		}
		{ print \$2 }
		END {
			for (s in oid) { print oid[s]; series_nr++ }
			print releases, series_nr > \"counts\"
		}
	" refs | sort >expect &&
	read releases series_nr <counts &&
	test $releases -gt $series_nr &&
	GIT_ROLLING_TEST_AFTER_TRANSFER="cat \"\$(ls -d \"$TRASH_DIRECTORY\"/listing/.git/objects/rolling-incoming-*)/view-haves\" >\"$TRASH_DIRECTORY/haves\"" \
		git -C listing rolling fetch -q --no-signatures origin &&
	sort haves >actual &&
	test_cmp expect actual
'

test_expect_success 'a server that leaves an object out of the pack is refused by the connectivity check' '
	consumer_copy hostile &&
	publish 14 &&
	new=$(git -C server.git rev-parse refs/heads/$BRANCH) &&
	release=$(git -C server.git rev-parse $new^2) &&
	test_must_fail git -C hostile cat-file -e $release &&
	printf "#!/bin/sh\n{ echo \"^%s\"; cat; } | \"\$@\"\n" $release >drop-hook &&
	printf "#!/bin/sh\nexec git -c uploadpack.packObjectsHook=\"'"'"'%s/drop-hook'"'"'\" upload-pack \"\$@\"\n" \
		"$TRASH_DIRECTORY" >dropping-upload-pack &&
	chmod +x drop-hook dropping-upload-pack &&
	git -C hostile config remote.origin.uploadpack "\"$TRASH_DIRECTORY/dropping-upload-pack\"" &&
	refs_and_logs hostile >before &&
	rm -f trace &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" test_expect_code 128 \
		git -C hostile rolling fetch -q --no-signatures origin 2>err &&
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
	rm -f trace &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" git -C rewritten rolling fetch -q --no-signatures origin &&
	in_view &&
	fetched rewritten
'

test_expect_success 'a relative remote path, fetched from a subdirectory, is the top level'"'"'s' '
	consumer_copy relative &&
	git -C relative config remote.origin.url ../server.git &&
	mkdir -p relative/sub/dir &&
	rm -f trace &&
	(cd relative/sub/dir &&
	 GIT_TRACE="$TRASH_DIRECTORY/trace" git rolling fetch -q --no-signatures origin) &&
	in_view &&
	fetched relative
'

test_expect_success 'a bare repository fetches in the view too' '
	git clone -q --bare consumer bare.git &&
	git -C bare.git config remote.origin.url "$SERVER_URL" &&
	git -C bare.git update-ref $VERIFIED $(cat old) &&
	git -C bare.git update-ref refs/remotes/origin/$BRANCH $(cat old) &&
	git -C consumer config --get-regexp "^rolling\\." >rolling-config &&
	while read key value
	do
		git -C bare.git config "$key" "$value" || return 1
	done <rolling-config &&
	rm -f trace &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" git -C bare.git rolling fetch -q --no-signatures origin &&
	in_view &&
	test "$(git -C bare.git rev-parse $VERIFIED)" = \
		"$(git -C server.git rev-parse refs/heads/$BRANCH)"
'

# The server's refs are listed before the configuration is read: a name
# that is no configured remote must not reach git ls-remote, which would
# take host:path for ssh.
test_expect_success 'a name that is no configured remote is never listed (no ssh to host:path)' '
	printf "#!/bin/sh\necho \"\$*\" >>\"%s/ssh-called\"\nexit 1\n" "$TRASH_DIRECTORY" >fake-ssh &&
	chmod +x fake-ssh &&
	rm -f ssh-called trace &&
	GIT_SSH="$TRASH_DIRECTORY/fake-ssh" GIT_TRACE="$TRASH_DIRECTORY/trace" \
		test_expect_code 128 git -C consumer rolling fetch somehost:repo 2>err &&
	grep "somehost:repo. is not a valid remote name" err &&
	! grep "built-in: git ls-remote" trace &&
	test_path_is_missing ssh-called
'

# --- where the view would not be the repository's equal ------------------

test_expect_success 'extensions.worktreeConfig: git fetch runs in the repository' '
	consumer_copy wtconfig &&
	git -C wtconfig config core.repositoryformatversion 1 &&
	git -C wtconfig config extensions.worktreeConfig true &&
	rm -f trace &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" git -C wtconfig rolling fetch -q --no-signatures origin &&
	in_repository &&
	fetched wtconfig
'

test_expect_success 'includeIf gitdir: (the view'"'"'s directory differs): in the repository' '
	consumer_copy condinc &&
	git -C condinc config remote.origin.url rolling-test:server.git &&
	printf "[url \"file://%s/\"]\n\tinsteadOf = rolling-test:\n" "$TRASH_DIRECTORY" >condinc.cfg &&
	git -C condinc config "includeIf.gitdir:$TRASH_DIRECTORY/condinc/.git.path" \
		"$TRASH_DIRECTORY/condinc.cfg" &&
	rm -f trace &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" git -C condinc rolling fetch -q --no-signatures origin &&
	in_repository &&
	fetched condinc
'

test_expect_success 'replace refs (not used: GIT_NO_REPLACE_OBJECTS): in the repository' '
	consumer_copy replaced &&
	one=$(echo one | git -C replaced hash-object -w --stdin) &&
	two=$(echo two | git -C replaced hash-object -w --stdin) &&
	git -C replaced replace $one $two &&
	rm -f trace &&
	GIT_NO_REPLACE_OBJECTS=1 GIT_TRACE="$TRASH_DIRECTORY/trace" git -C replaced rolling fetch -q --no-signatures origin &&
	in_repository &&
	fetched replaced
'

test_expect_success 'a partial clone (promisor remote): in the repository' '
	git clone -q --no-checkout --filter=blob:none "$SERVER_URL" partial &&
	git -C partial update-ref refs/remotes/origin/$BRANCH $(cat old) &&
	git -C partial rolling init -q --follow origin/$BRANCH --preset linux &&
	git -C partial update-ref $VERIFIED $(cat old) &&
	rm -f trace &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" git -C partial rolling fetch -q --no-signatures origin &&
	in_repository &&
	fetched partial
'

test_expect_success 'alternates of its own: in the repository' '
	git clone -q --shared --no-checkout -o mirror consumer borrower &&
	git -C borrower remote add origin "$SERVER_URL" &&
	git -C borrower update-ref refs/remotes/origin/$BRANCH $(cat old) &&
	git -C borrower rolling init -q --follow origin/$BRANCH --preset linux &&
	rm -f trace &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" git -C borrower rolling fetch -q --no-signatures origin &&
	in_repository &&
	fetched borrower
'

test_done
