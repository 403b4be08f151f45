# lib-sign-tags.sh - sign every tag of a repository in one go, for the
# fixtures of the tests (lib-stable-tree.sh) and of the benchmarks
# (perf/lib-kernel-scale.sh).
#
#   sign_all_tags REPO KEY
#       replace every annotated tag under refs/tags/ of REPO by the same
#       tag signed with the SSH key KEY, as `git tag -s` signs it (the
#       payload followed by the SSH signature); make KEY (ed25519, no
#       passphrase) and KEY.allowed-signers first if KEY does not exist;
#       set REPO up so that `git verify-tag` and `git tag -s` work with
#       it (gpg.format=ssh, user.signingKey, gpg.ssh.allowedSignersFile).
#
# fast-import cannot sign, so the tags are rewritten after the import:
# one cat-file, one ssh-keygen per few thousand payloads (xargs), one
# hash-object and one update-ref, whatever the number of tags.

sign_all_tags () {
	sat_repo=$1 sat_key=$2 &&
	if ! test -f "$sat_key"
	then
		ssh-keygen -q -t ed25519 -N "" -C "fixture signing key" -f "$sat_key" >/dev/null ||
		return 1
	fi &&
	echo "release-signer@example.org $(cat "$sat_key.pub")" >"$sat_key.allowed-signers" &&
	sat_dir=$(cd "$sat_repo/.git" && pwd)/sign-all-tags &&
	rm -rf "$sat_dir" && mkdir "$sat_dir" &&
	git -C "$sat_repo" for-each-ref --format='%(objecttype) %(objectname) %(refname)' \
		refs/tags | sed -n "s/^tag //p" >"$sat_dir/refs" &&
	awk '{ print $1 }' "$sat_dir/refs" |
	git -C "$sat_repo" cat-file --batch |
	awk -v dir="$sat_dir" '
		!left && !NF { next }      # the blank line after each object
		!left { file = dir "/" ++n; print n > (dir "/payloads"); left = $3; next }
		{ print > file; left -= length($0) + 1; if (left <= 0) { left = 0; close(file) } }
	' &&
	(
		cd "$sat_dir" &&
		xargs ssh-keygen -q -Y sign -n git -f "$sat_key" <payloads >/dev/null 2>&1 &&
		awk -v dir="$sat_dir" '{
			while ((getline line < $0) > 0) print line > ($0 ".signed")
			while ((getline line < ($0 ".sig")) > 0) print line > ($0 ".signed")
			close($0); close($0 ".sig"); close($0 ".signed")
			print dir "/" $0 ".signed"
		}' payloads
	) |
	git -C "$sat_repo" hash-object -t tag -w --stdin-paths >"$sat_dir/signed" &&
	awk '{ print $2 }' "$sat_dir/refs" |
	paste -d" " - "$sat_dir/signed" |
	sed "s/^/update /" |
	git -C "$sat_repo" update-ref --stdin &&
	rm -rf "$sat_dir" &&
	git -C "$sat_repo" config gpg.format ssh &&
	git -C "$sat_repo" config user.signingKey "$sat_key" &&
	git -C "$sat_repo" config gpg.ssh.allowedSignersFile "$sat_key.allowed-signers"
}
