# lib-mergetag.sh - tag objects and merges with chosen mergetag headers,
# made with plain git and ssh-keygen.  Source after lib-verify.sh, in a
# test whose fixture was made with STABLE_SIGNED_TAGS=1.
#
#   signed_tag_object NAME COMMIT [KEY]
#                       print the id of a new tag object NAME on COMMIT,
#                       signed as `git tag -s` signs (default: the
#                       fixture's key), and referenced by no ref
#   tag_with_broken_signature TAG
#                       print the id of a copy of TAG's tag object with
#                       one character of its signature changed
#   with_mergetag MERGE TAG-OBJECT...
#                       print the id of MERGE with its mergetag headers
#                       replaced by one header per TAG-OBJECT (none: no
#                       header), everything else byte for byte kept
#   with_broken_gpgsig MERGE
#                       print the id of MERGE with one character of its
#                       commit signature (gpgsig header) changed
#   with_header MERGE LINE
#                       print the id of MERGE with LINE added as a
#                       header after the committer line

signed_tag_object () {
	sto_key=${3:-$TRASH_DIRECTORY/stable-signing.key} &&
	printf 'object %s\ntype commit\ntag %s\ntagger %s 1700000000 +0000\n\n%s\n' \
		"$(git rev-parse "$2^{commit}")" "$1" "Mallory M <mallory@example.org>" \
		"Linux ${1#v}" >"$TRASH_DIRECTORY/tag.payload" &&
	rm -f "$TRASH_DIRECTORY/tag.payload.sig" &&
	ssh-keygen -q -Y sign -n git -f "$sto_key" "$TRASH_DIRECTORY/tag.payload" \
		>/dev/null 2>&1 &&
	cat "$TRASH_DIRECTORY/tag.payload" "$TRASH_DIRECTORY/tag.payload.sig" |
	git hash-object -t tag -w --stdin
}

tag_with_broken_signature () {
	git cat-file tag "$1" |
	awk '/^-----BEGIN SSH SIGNATURE-----$/ { armour = 1; print; next }
	     armour && !done { $0 = (substr($0, 1, 1) == "A" ? "B" : "A") substr($0, 2); done = 1 }
	     { print }' |
	git hash-object -t tag -w --stdin
}

# The mergetag headers of TAG-OBJECTs, as git writes them.
mergetag_headers_ () {
	for mh_tag
	do
		git cat-file tag "$mh_tag" | sed -e "1s/^/mergetag /" -e "2,\$s/^/ /" || return 1
	done
}

with_mergetag () {
	wm_merge=$1 &&
	shift &&
	mergetag_headers_ "$@" >"$TRASH_DIRECTORY/mergetag.headers" &&
	git cat-file commit "$wm_merge" |
	awk -v headers="$TRASH_DIRECTORY/mergetag.headers" '
		body { print; next }
		/^mergetag / || (in_tag && /^ /) { in_tag = 1; next }
		{ in_tag = 0 }
		/^$/ {
			while ((getline line < headers) > 0) print line
			body = 1
		}
		{ print }
	' |
	git hash-object -t commit -w --stdin
}

with_header () {
	git cat-file commit "$1" |
	awk -v line="$2" '{ print } /^committer / && !done { print line; done = 1 }' |
	git hash-object -t commit -w --stdin
}

with_broken_gpgsig () {
	git cat-file commit "$1" |
	awk '/^gpgsig / { print; getline; c = substr($0, 2, 1)
			  $0 = " " (c == "A" ? "B" : "A") substr($0, 3) }
	     { print }' |
	git hash-object -t commit -w --stdin
}
