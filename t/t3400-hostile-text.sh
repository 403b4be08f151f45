#!/bin/sh

test_description='no repository text reaches a terminal raw

A hostile server publishes a commit subject, a tag object and a branch
name made of bytes that act on a terminal: ESC (a sequence that erases
the line), CR (back to its start, so that what follows overwrites the
"error:"), BEL, backspaces, bytes that are not UTF-8, a C1 control and
the bidi override and isolate characters that reorder what is shown.
fetch, verify, pull, status, log and advance must print them escaped as
lib/quote.h says (\033, \r, \a, \b, and three-digit octal for the
rest), keep the error line and its exit status, and --json must still
carry the exact text.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

# The hostile subject, as a printf format: its escapes are exactly what
# the quoted output must show.  ESC [2K erases the line, CR returns to
# its start to overwrite the "error:" with a fake "verified", backspaces
# erase, DEL (\177) is a control as well, \377\376 are not UTF-8,
# \342\200\256 is U+202E (right-to-left override), \342\201\246 U+2066
# (left-to-right isolate), \302\233 U+009B (a C1 control some terminals
# read as CSI).
EVIL='Fix\033[2K\r\a\b\b\177origin/x: verified \377\376 \342\200\256evil\342\201\246 \302\233end'
# In a ref name: git refuses control characters and spaces there, not
# the rest.
# In the header of a tag object, where anything but a newline goes.
EVIL_TAG='\033]0;pwned\a\342\200\256\377'
EVIL_NAME='rolling-\342\200\256lanif-\377'

# no_raw FILE...: none of the bytes that act on a terminal is in FILE,
# and FILE is valid UTF-8 (tabs and newlines are fine).  Three greps for
# all the files: a python3 per file (about 0.4 CPU-seconds each, through
# pyenv's launcher) made most of the script's cost.  In the C.UTF-8
# locale, GNU grep -axv ".*" selects exactly the lines that are not
# well-formed UTF-8, as Python's strict decoder rejects them (overlong
# forms, surrogates, past U+10FFFF, cut sequences: compared over every
# sequence of one and two bytes and every lead of three and four); the
# first test wants one of each caught, and without that locale none
# would be.
no_raw () {
	if LC_ALL=C grep -H -n "$(printf "[\001-\010\013-\037\177]")" "$@" >raw.found ||
	   LC_ALL=C grep -H -n "$(printf "\342\200[\252-\256]\\|\342\201[\246-\251]\\|\302[\200-\237]")" \
		"$@" >raw.found ||
	   LC_ALL=C.UTF-8 grep -H -n -a -x -v ".*" "$@" >raw.found
	then
		echo "raw bytes in $*:" &&
		od -c raw.found &&
		return 1
	fi
}

server_tip () {
	git --git-dir=server.git rev-parse "refs/heads/$BRANCH"
}

test_expect_success PYTHON3 'no_raw sees each kind of byte it looks for' '
	for byte in "\033" "\r" "\a" "\b" "\177" "\377" "\342\200\256" "\342\201\246" "\302\233" \
		"\300\200" "\340\200\200" "\355\240\200" "\364\220\200\200" "\342\200" "\200"
	do
		printf "a${byte}b\n" >probe &&
		! no_raw probe || return 1
	done &&
	printf "plain\ttext \342\200\224 fine\n" >probe &&
	no_raw probe
'

test_expect_success PYTHON3 'setup: a server, a consumer following it, a clone tracking it' '
	setup_upstream &&
	publish 13 &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init -q --follow origin/$BRANCH --preset linux &&
	git -C consumer rolling fetch -q origin &&
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" reader &&
	git -C reader rolling init -q --follow origin/$BRANCH &&
	git -C reader rolling pull -q &&
	printf "$EVIL\n\nbody\033]0;title\a\n" >evil.msg &&
	good=$(server_tip) &&
	echo $good >good &&
	# git commit-tree would turn bytes that are not UTF-8 into UTF-8.
	{
		printf "tree %s\nparent %s\n" $(git --git-dir=server.git rev-parse $good^{tree}) $good &&
		printf "author A U Thor <author@example.com> 1800000000 +0000\n" &&
		printf "committer A U Thor <author@example.com> 1800000000 +0000\n\n" &&
		cat evil.msg
	} >evil.commit &&
	evil=$(git --git-dir=server.git hash-object -t commit -w --stdin <evil.commit) &&
	echo $evil >evil &&
	git -C upstream hash-object -t commit -w --stdin <evil.commit >/dev/null &&
	git --git-dir=server.git cat-file commit $evil >raw &&
	test_cmp evil.commit raw
'

test_expect_success PYTHON3 'fetch: the injected commit'"'"'s subject is quoted, the error kept' '
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $(cat good)" &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $(cat evil) &&
	test_expect_code 1 git -C consumer rolling fetch origin >out 2>err &&
	no_raw out err &&
	printf "error: origin/$BRANCH: %s: injected: expected a rolling merge or a release commit, found plain commit \"%s\"\n" \
		$(cat evil) "$EVIL" >expect &&
	grep -F -x -f expect err &&
	grep "^error: origin: 1 branch failed verification; nothing was updated" err &&
	grep "^origin/$BRANCH: FAILED (1 failure)$" out
'

test_expect_success PYTHON3 'pull: the same, with its exit status' '
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $(cat good)" &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $(cat evil) &&
	test_expect_code 1 git -C reader rolling pull >out 2>err &&
	no_raw out err &&
	grep -F "found plain commit \"$EVIL\"" err &&
	test "$(git -C reader rev-parse HEAD)" = "$(cat good)"
'

test_expect_success PYTHON3 'verify: quoted in the report, exact in --json' '
	test_when_finished "git -C upstream update-ref refs/heads/$BRANCH $(cat good)" &&
	git -C upstream update-ref refs/heads/$BRANCH $(cat evil) &&
	test_expect_code 1 git -C upstream rolling verify $BRANCH >out 2>err &&
	no_raw out err &&
	grep -F "error: $BRANCH: $(cat evil): injected: expected a rolling merge or a release commit, found plain commit \"$EVIL\"" err &&
	grep "^$BRANCH: FAILED (1 failure)$" out &&
	test_expect_code 1 git -C upstream rolling verify --json $BRANCH >out.json 2>err &&
	head -n 1 evil.msg >subject &&
	test_python3 - out.json subject <<-\PY
	import json, sys
	doc = json.load(open(sys.argv[1]))
	subject = open(sys.argv[2], "rb").read().rstrip(b"\n").decode("utf-8", "replace")
	found = doc["branches"][0]["failures"][0]["found"]
	want = "plain commit \"%s\"" % subject
	if found != want:
	    print(repr(found), "!=", repr(want))
	    sys.exit(1)
	PY
'

test_expect_success PYTHON3 'a forged tag object: its name and message are quoted' '
	base=$(git -C upstream rev-list --first-parent --max-parents=1 -n 1 $BRANCH) &&
	tag=$(git -C upstream describe --exact-match --abbrev=0 $base) &&
	printf "object %s\ntype commit\ntag %s$EVIL_TAG\ntagger A \033[2K\rU Thor\377 <author@example.com> 1800000000 +0000\n\n$EVIL\n" \
		$base $tag >forged.tag &&
	forged=$(git -C upstream hash-object -t tag -w --stdin --literally <forged.tag) &&
	git -C upstream cat-file tag $forged >raw &&
	test_cmp forged.tag raw &&
	git -C upstream tag forged-$tag $forged &&
	test_when_finished "git -C upstream update-ref refs/tags/$tag $(git -C upstream rev-parse refs/tags/$tag)" &&
	git -C upstream update-ref refs/tags/$tag $forged &&
	test_expect_code 1 git -C upstream rolling verify $BRANCH >out 2>err &&
	no_raw out err &&
	grep -F "found $tag: its tag object $forged is the tag '"'"'$tag$EVIL_TAG'"'"', published under another name" err &&
	git -C upstream rolling status >out 2>err &&
	no_raw out err &&
	test_expect_code 1 git -C upstream rolling verify --json $BRANCH >out.json &&
	printf "$tag: its tag object $forged is the tag '"'"'$tag$EVIL_TAG'"'"', published under another name" >want &&
	test_python3 - out.json want <<-\PY
	import json, sys
	doc = json.load(open(sys.argv[1]))
	want = open(sys.argv[2], "rb").read().decode("utf-8", "replace")
	found = doc["branches"][0]["failures"][0]["found"]
	if found != want:
	    print(repr(found), "!=", repr(want))
	    sys.exit(1)
	PY
'

test_expect_success PYTHON3 'a forged tag on the server: fetch quotes it, takes nothing' '
	test_when_finished "git --git-dir=server.git update-ref refs/tags/$tag $(git --git-dir=server.git rev-parse refs/tags/$tag)" &&
	git -C upstream push -q server forged-$tag &&
	git --git-dir=server.git update-ref refs/tags/$tag $(git -C upstream rev-parse forged-$tag) &&
	git init -q fresh &&
	git -C fresh remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C fresh rolling init -q --follow origin/$BRANCH --preset linux &&
	test_expect_code 1 git -C fresh rolling fetch origin >out 2>err &&
	no_raw out err &&
	grep -F "is the tag '"'"'$tag$EVIL_TAG'"'"', published under another name" err &&
	test_must_fail git -C fresh rev-parse --verify -q refs/remotes/origin/$BRANCH
'

test_expect_success PYTHON3 'a branch name: status, log, verify, describe, advance, fetch' '
	name=$(printf "$EVIL_NAME") &&
	git -C upstream rolling init --preset linux "$name" >out 2>err &&
	no_raw out err &&
	grep -F "created '"'"'$EVIL_NAME'"'"' at " out &&
	git -C upstream rolling status "$name" >out 2>err &&
	no_raw out err &&
	grep -F -x "$EVIL_NAME: policy stable, follows 5.19" out &&
	git -C upstream rolling log $BRANCH "$name" >out 2>err &&
	no_raw out err &&
	grep -F "$EVIL_NAME: " out &&
	git -C upstream rolling verify "$name" >out 2>err &&
	no_raw out err &&
	grep -F -x "$EVIL_NAME: verified" out &&
	git -C upstream rolling describe --branch "$name" "$name" >out 2>err &&
	no_raw out err &&
	grep -F "first in $EVIL_NAME at " out &&
	stable_tree_replay upstream 14 &&
	git -C upstream rolling advance "$name" >out 2>err &&
	no_raw out err &&
	grep -F "$EVIL_NAME: v" out &&
	git -C upstream push -q server "refs/heads/$name:refs/heads/$name" "refs/tags/*:refs/tags/*" &&
	git -C consumer rolling init -q --follow "origin/$name" &&
	git -C consumer rolling fetch origin >out 2>err &&
	no_raw out err &&
	grep -F -x "origin/$EVIL_NAME: verified for the first time at $(git --git-dir=server.git rev-parse --short "refs/heads/$name")" out &&
	git -C consumer rev-parse --verify "refs/remotes/origin/$name"
'

test_done
