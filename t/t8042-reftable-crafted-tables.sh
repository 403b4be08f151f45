#!/bin/sh

test_description='tables git does not write, read as git reads them

A reftable repository is read with git'"'"'s own reftable library.  Tables
that git'"'"'s commands do not make but git reads (written by git'"'"'s writer
with other settings, or changed byte by byte after) must give the refs
git gives: each name as git rev-parse resolves it, each listing as git
for-each-ref lists it, and where git cannot read a table, an error,
never a partial listing.  Each case was one where our own reader, before
the library, answered differently.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-reftable.sh

# branches N M OID: "refs/heads/bN OID" ... "refs/heads/bM OID".
branches () {
	br_i=$1 &&
	while test "$br_i" -le "$2"
	do
		echo "refs/heads/b$br_i $3" &&
		br_i=$((br_i + 1)) || return 1
	done
}

# names N M: refs/heads/bN ... refs/heads/bM.
names () {
	branches "$1" "$2" x | cut -d" " -f1
}

test_expect_success REFTABLE 'setup: a repository whose tables git wrote' '
	reftable_repo repo &&
	git -C repo branch zzz "$(cat old)"
'

# crafted DIR [OPTION...]: a copy of repo in DIR with one table more, of
# the records of stdin (test-reftable add OPTION...); $table names it.
crafted () {
	crafted_dir_=$1 &&
	shift &&
	rm -rf "$crafted_dir_" && cp -R repo "$crafted_dir_" &&
	test-reftable add "$@" "$crafted_dir_/.git/reftable" &&
	table=$(newest_table "$crafted_dir_/.git/reftable")
}

# A table of 51 branches in blocks of 256 bytes: six ref blocks, a ref
# index, an object index; refs/heads/zzz, in the last block, moves on.
crafted_blocks () {
	{ branches 10 60 "$(cat new)" && echo "refs/heads/zzz $(cat new)"; } >input &&
	crafted "$1" --block-size=256 $2 <input &&
	reftable_edit "$table" blocks >blocks &&
	test $(grep -c " r " blocks) -ge 5
}

test_expect_success REFTABLE 'an object index offset into the ref blocks hides none of them' '
	crafted_blocks obj-index &&
	third=$(grep " r " blocks | sed -n 3p | cut -d" " -f1) &&
	reftable_edit "$table" footer obj_index "$third" &&
	git -C obj-index rev-parse refs/heads/zzz >actual &&
	test_cmp new actual &&
	same_ref obj-index refs/heads/zzz refs/heads/b10 refs/heads/b60 &&
	same_refs obj-index
'

test_expect_success REFTABLE 'unpadded blocks are read one after the other' '
	crafted_blocks unpadded --unpadded &&
	! grep "^256 " blocks &&
	git -C unpadded rev-parse refs/heads/zzz >actual &&
	test_cmp new actual &&
	same_ref unpadded refs/heads/zzz refs/heads/b10 refs/heads/b35 &&
	same_refs unpadded
'

# A restart point moved to the update-index byte of a record (0, a
# prefix length of 0) followed by an object id whose first byte reads as
# a short key that sorts before every name: git's search over the
# restart points then starts its scan past the refs between that point
# and the next, and git rev-parse does not find them, while git
# for-each-ref, which starts at the first record, lists them.  The id is
# that of a blob chosen for its first bytes.
test_expect_success REFTABLE 'a corrupted restart offset: the lookups git misses, we miss' '
	i=0 &&
	while :
	do
		oid=$(echo "restart $i" | git -C repo hash-object -w --stdin) &&
		b0=$(printf "%d" "0x$(echo $oid | cut -c1-2)") &&
		b1=$(printf "%d" "0x$(echo $oid | cut -c3-4)") &&
		if test $b0 -lt 128 && test $((b0 % 8)) -le 1 && test $b1 -lt 114
		then
			break
		fi &&
		i=$((i + 1)) || return 1
	done &&
	branches 10 40 $oid >input &&
	crafted restart --restart-interval=4 <input &&
	reftable_edit "$table" records 0 >records &&
	reftable_edit "$table" restarts 0 >restarts &&
	set -- $(head -n 1 records) &&
	reftable_edit "$table" poke $(sed -n 4p restarts | cut -d" " -f1) \
		0 $((($1 + 2 + $3) / 256)) $((($1 + 2 + $3) % 256)) &&
	for name in $(names 10 40)
	do
		git -C restart rev-parse -q --verify $name >/dev/null ||
		echo $name || return 1
	done >missed-by-git &&
	test -s missed-by-git &&
	same_ref restart $(names 10 40) &&
	same_refs restart
'

test_expect_success REFTABLE 'a DEL byte in a name: left out, as git leaves it out' '
	del=$(printf "refs/heads/a\\177b") &&
	echo "$del $(cat new)" >input &&
	crafted del <input &&
	same_refs del &&
	! grep "refs/heads/a" actual &&
	same_ref del "$del" refs/heads/zzz
'

test_expect_success REFTABLE 'names git refuses are not handed on' '
	for name in refs/heads/x.lock refs/heads/c..d "refs/tags/@{x" refs/heads/.hidden \
		refs/heads/dot. "refs/heads/star*" "refs/heads/co:lon" refs/heads/x/.y \
		refs/heads/ok
	do
		echo "$name $(cat new)" || return 1
	done >input &&
	crafted bad-names <input &&
	same_refs bad-names &&
	grep -v -e refs/heads/main -e refs/heads/zzz -e refs/tags/one -e refs/tags/two actual >listed &&
	echo "$(cat new)  refs/heads/ok " >expect &&
	test_cmp expect listed &&
	same_ref bad-names refs/heads/x.lock refs/heads/c..d refs/heads/.hidden refs/heads/ok
'

test_expect_success REFTABLE 'a name git finds dangerous fails the listing, as it fails git'"'"'s' '
	for name in refs/heads//twice refs/heads/x/../y refs/heads/trail/ refs/heads/./z
	do
		echo "$name $(cat new)" >input &&
		crafted dangerous <input &&
		test_must_fail git -C dangerous for-each-ref >out 2>err &&
		grep "refname is dangerous" err &&
		test_must_fail rt_refs dangerous >out &&
		grep "^error: the reftable stack .* holds a ref of the dangerous name .$name." out &&
		same_ref dangerous refs/heads/zzz || return 1
	done
'

test_expect_success REFTABLE 'a name twice in one table is what git resolves it to, once' '
	printf "refs/heads/dupA %s\\nrefs/heads/dupB %s\\n" "$(cat old)" "$(cat new)" >input &&
	crafted twice <input &&
	set -- $(reftable_edit "$table" records 0 | grep " refs/heads/dupB\$") &&
	test $2 = 14 && test $3 = 1 &&
	reftable_edit "$table" poke $(($1 + 2)) 65 &&
	git -C twice for-each-ref refs/heads/dupA >listed-by-git &&
	test_line_count = 2 listed-by-git &&
	git -C twice rev-parse refs/heads/dupA >actual &&
	test_cmp old actual &&
	same_ref twice refs/heads/dupA &&
	(cd twice &&
	 git for-each-ref --format="%(objectname) %(*objectname) %(refname) %(symref)" |
	 awk "{ split(\$0, f, / /); if (!seen[f[3]]++) print }") >expect &&
	rt_refs twice >actual &&
	test_cmp expect actual
'

# damaged REPO: the listing fails, with the library's word for the
# table; git does not read the damaged name either.
damaged () {
	test_must_fail rt_refs "$1" >out &&
	grep "^error: cannot read the reftable stack .*/\.git/reftable.: $2" out
}

test_expect_success REFTABLE 'a peeled value read past its block is an error' '
	git -C repo tag -a -m tag v1 &&
	printf "refs/heads/a %s\\nrefs/tags/v2 %s %s\\nrefs/tags/v3 %s\\n" "$(cat new)" \
		"$(git -C repo rev-parse v1)" "$(cat new)" "$(cat new)" >input &&
	crafted peel <input &&
	git -C repo tag -d v1 >/dev/null &&
	set -- $(reftable_edit "$table" records 0 | tail -n 1) &&
	test "$5" = refs/tags/v3 && test $4 = 1 &&
	# The last record of the block says it holds a peeled value too.
	reftable_edit "$table" poke $(($1 + 1)) $((($3 * 8) + 2)) &&
	test_must_fail git -C peel rev-parse -q --verify refs/tags/v3 &&
	same_ref peel refs/tags/v3 &&
	damaged peel "a table is damaged or unreadable"
'

test_expect_success REFTABLE 'a prefix longer than the name before it is an error' '
	printf "refs/heads/aa %s\\nrefs/heads/ab %s\\n" "$(cat new)" "$(cat new)" >input &&
	crafted prefix <input &&
	set -- $(reftable_edit "$table" records 0 | grep " refs/heads/ab\$") &&
	test $2 = 12 &&
	# "refs/heads/a" before it is 13 bytes: take 14.
	reftable_edit "$table" poke $1 14 &&
	test_must_fail git -C prefix rev-parse -q --verify refs/heads/ab &&
	same_ref prefix refs/heads/ab &&
	damaged prefix "a table is damaged or unreadable"
'

test_expect_success REFTABLE 'a footer that fails its CRC-32 is an error' '
	echo "refs/heads/crc $(cat new)" >input &&
	crafted crc <input &&
	same_ref crc refs/heads/crc &&
	reftable_edit "$table" crc &&
	test_must_fail git -C crc rev-parse -q --verify refs/heads/crc &&
	same_ref crc refs/heads/crc refs/heads/main &&
	damaged crc "corrupt reftable file"
'

test_expect_success REFTABLE 'a table the stack names and that is gone is an error, never a partial listing' '
	echo "refs/heads/zzz $(cat new)" >input &&
	crafted gone <input &&
	same_ref gone refs/heads/zzz &&
	rm "$table" &&
	test_must_fail git -C gone rev-parse -q --verify refs/heads/zzz &&
	same_ref gone refs/heads/zzz &&
	damaged gone "file does not exist"
'

test_expect_success REFTABLE 'an empty stack holds no ref' '
	rm -rf empty && cp -R repo empty &&
	: >empty/.git/reftable/tables.list &&
	git -C empty for-each-ref >listed-by-git &&
	test_must_be_empty listed-by-git &&
	same_refs empty &&
	test_must_be_empty actual &&
	same_ref empty HEAD refs/heads/main
'

test_done
