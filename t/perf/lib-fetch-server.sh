# lib-fetch-server.sh - the server and the consumer of the fetch
# benchmarks (p7000, p7100).  Source it after lib-measure.sh, and call
# perf_setup first: it works in $work, from the kernel-scale repository.
#
#   fetch_server BRANCH
#       make $work/server.git: a bare repository borrowing the objects
#       of the kernel-scale repository (objects/info/alternates), with
#       its refs, one release more on the series BRANCH follows and the
#       rolling step merging it.  Sets server, big (the kernel-scale
#       repository), tip and tip_release (BRANCH before the step),
#       new_release, new_tip, and writes $work/new-objects, the objects
#       a copy of the kernel-scale repository lacks (new_objects counts
#       them).
#
#   fetch_consumer BRANCH [REFSPEC]
#       make $work/consumer, a local clone of the kernel-scale repository
#       (its pack hard-linked, no alternates, as a kernel clone is) with
#       the server as remote "stable" (and what REFSPEC fetches from it),
#       followed by git rolling init --follow and verified up to the step
#       before, and enter it; write
#       $work/reset, a script that puts the consumer back as it is now
#       (the new objects deleted, the refs reset), for each fetch measured
#       to start from.

fetch_server () {
	big=$(pwd -P)
	tip=$(git rev-parse $1) || die "no $1"
	server=$work/server.git
	git init -q --bare "$server" &&
	echo "$big/.git/objects" >"$server/objects/info/alternates" &&
	cp .git/packed-refs "$server/packed-refs" || die "cannot make the server"

	tip_release=$(git log -1 --format=%s $tip | sed -n 's/^Merge //p')
	test -n "$tip_release" || die "the tip of $1 is not a rolling merge"
	fs_series=${tip_release%.*}
	fs_patch=${tip_release##*.}
	while git rev-parse -q --verify "refs/tags/$fs_series.$((fs_patch + 1))" >/dev/null
	do
		fs_patch=$((fs_patch + 1))
	done
	new_release=$fs_series.$((fs_patch + 1))

	fs_release_commit=$(git rev-parse "$tip^2")
	(
		GIT_DIR=$server
		export GIT_DIR
		export GIT_AUTHOR_NAME="Greg KH" GIT_AUTHOR_EMAIL=gregkh@example.org
		export GIT_COMMITTER_NAME="Greg KH" GIT_COMMITTER_EMAIL=gregkh@example.org
		export GIT_AUTHOR_DATE="2000000000 +0100" GIT_COMMITTER_DATE="2000000000 +0100"
		GIT_INDEX_FILE=$work/index
		export GIT_INDEX_FILE
		git read-tree $fs_release_commit &&
		blob=$(printf '/* stable fix for %s */\n' "$new_release" | git hash-object -w --stdin) &&
		git update-index --add --cacheinfo 100644,$blob,f0.c &&
		fix=$(git commit-tree -p $fs_release_commit -m "backport for $new_release" $(git write-tree)) &&
		git show $fs_release_commit:Makefile |
			sed "s/^SUBLEVEL = .*/SUBLEVEL = $((fs_patch + 1))/" |
			git hash-object -w --stdin >"$work/makefile" &&
		git update-index --add --cacheinfo 100644,$(cat "$work/makefile"),Makefile &&
		bump=$(git commit-tree -p $fix -m "Linux ${new_release#v}" $(git write-tree)) &&
		git tag -a -m "Linux ${new_release#v}" $new_release $bump &&
		export GIT_AUTHOR_NAME="Rolling Bench" GIT_AUTHOR_EMAIL=bench@example.org
		export GIT_COMMITTER_NAME="Rolling Bench" GIT_COMMITTER_EMAIL=bench@example.org &&
		step=$(printf 'Merge %s\n\nSigned-off-by: Rolling Bench <bench@example.org>\n' $new_release |
			git commit-tree -p $tip -p $bump $bump^{tree}) &&
		git update-ref refs/heads/$1 $step
	) || die "cannot make the new step"
	new_tip=$(git --git-dir="$server" rev-parse $1)
	git --git-dir="$server" rev-list --objects $new_tip --not $tip $fs_release_commit |
		cut -d' ' -f1 >"$work/new-objects"
	git --git-dir="$server" rev-parse refs/tags/$new_release >>"$work/new-objects"
	new_objects=$(wc -l <"$work/new-objects")
}

fetch_consumer () {
	consumer=$work/consumer
	git clone -q --no-checkout "$big" "$consumer" || die "cannot clone"
	cd "$consumer" || exit 1
	git config gc.auto 0
	git remote add stable "file://$server"
	test -z "${2-}" || git fetch -q --no-tags stable "$2" || die "cannot fetch $2"
	git rolling init -q --follow stable/$1 --preset linux || die "init --follow failed"
	# The new objects, loose (git fetch unpacks a small pack) or in a pack
	# of their own (git rolling fetch keeps the pack it received).
	ls .git/objects/pack >"$work/packs"
	cat >"$work/reset" <<EOF
cd "$consumer" &&
sed 's|^\(..\)|.git/objects/\1/|' "$work/new-objects" | xargs rm -f &&
ls .git/objects/pack | grep -vxF -f "$work/packs" | sed 's|^|.git/objects/pack/|' | xargs rm -f &&
git update-ref refs/remotes/stable/$1 $tip &&
git update-ref refs/rolling/verified/stable/$1 $tip &&
{ git update-ref -d refs/tags/$new_release 2>/dev/null || :; }
EOF
}
