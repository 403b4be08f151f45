#!/bin/sh
# p2100-advance-worktree.sh - advance of a checked-out rolling branch on a
# large work tree, side by side with `git merge --ff-only` to the same
# commit, on three shapes of tree:
#
#   flat     PERF_FILES files (default 80,000) in 400 directories
#   kernel   1.1 times as many (88,000) in directories up to 8 deep, 15
#            files a directory on average (5,866), most of them 3 to 5
#            deep, as in linux-stable
#   each     PERF_FILES files, each in a directory of its own
#
# Each release changes PERF_CHANGED files (default 3,000), spread over
# the tree.  Prints the medians over PERF_RUNS rounds (default 11) and
# each shape's ratio, with PASS or MISS against the targets:
#
#   advance within 1.0 times git merge --ff-only on the kernel shape
#   advance within 1.1 times git merge --ff-only on the other two
#
# Every run starts from the same state (branch, index and files at the
# first release, the index refreshed).  A round runs, for each shape in
# turn, advance then the merge, so that all meet the same load and
# caches.  Informational only: a MISS does not fail.

PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$PERF_DIR/../.." && pwd -P)
. "$PERF_DIR/lib-measure.sh"

RUNS=${PERF_RUNS:-11}
FILES=${PERF_FILES:-80000}
CHANGED=${PERF_CHANGED:-3000}
SHAPES="flat kernel each"
TARGET_flat=1.1 TARGET_kernel=1.0 TARGET_each=1.1
KERNEL_DEPTH=8 KERNEL_PER_DIR=15
perf_name=p2100

for var in $(env | sed -n 's/^\(GIT_[A-Za-z0-9_]*\)=.*/\1/p')
do
	unset "$var"
done
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
PATH=$BUILD_DIR:$PATH
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL LC_ALL PATH
test -x "$BUILD_DIR/git-rolling-advance" || die "build git-rolling first (make)"
# The trees on the tmpfs if it has room (perf_scratch): the three take
# about 13 KiB for each of PERF_FILES, 1 GiB at the default size; ask for
# three times that.
work=$(perf_scratch $((FILES * 40))) || exit 1
trap 'rm -rf "$work"' EXIT

# files_of SHAPE, dirs_of SHAPE: the size of each shape.
files_of () {
	case $1 in
	kernel) echo $((FILES * 11 / 10)) ;;
	*) echo "$FILES" ;;
	esac
}
dirs_of () {
	case $1 in
	flat) echo 400 ;;
	kernel) echo $(($(files_of kernel) / KERNEL_PER_DIR)) ;;
	each) echo "$FILES" ;;
	esac
}

# history SHAPE: v6.0 with the shape's files, then v6.0.1 and v6.0.2, each
# changing CHANGED files spread over the tree; one fast-import stream.
history () {
	awk -v shape="$1" -v files="$(files_of "$1")" -v dirs="$(dirs_of "$1")" \
	    -v changed="$CHANGED" -v depth="$KERNEL_DEPTH" '
	# The kernel shape: how many of its directories are at each depth
	# (linux-stable has about 20 at the top and most 3 to 5 deep), and
	# each directory under one of the level above, spread evenly.
	function kernel_dirs(    share, d, n, total, j, k) {
		split("0.004 0.100 0.370 0.320 0.140 0.050 0.012 0.004", share, " ")
		total = 0
		for (d = 1; d <= depth; d++) {
			n[d] = int(dirs * share[d] + 0.5)
			if (n[d] < 1)
				n[d] = 1
			total += n[d]
		}
		n[3] += dirs - total
		k = 0
		for (d = 1; d <= depth; d++) {
			for (j = 0; j < n[d]; j++) {
				dir[k] = (d == 1 ? "" : dir[first[d - 1] + int(j * n[d - 1] / n[d])] "/") "d" j
				if (j == 0)
					first[d] = k
				k++
			}
		}
	}
	function path(i) {
		if (shape == "flat")
			return sprintf("d%03d/f%05d.c", i % 400, i)
		if (shape == "kernel")
			return sprintf("%s/f%05d.c", dir[i % dirs], i)
		return sprintf("d%05d/f%05d.c", i, i)
	}
	BEGIN {
		if (shape == "kernel")
			kernel_dirs()
		when = 1700000000
		step = int(files / changed)
		for (r = 0; r <= 2; r++) {
			name = r ? "v6.0." r : "v6.0"
			print "commit refs/heads/master"
			print "mark :" (r + 1)
			print "committer Perf <perf@example.org> " (when + r * 86400) " +0000"
			msg = "Linux " substr(name, 2)
			print "data " length(msg); print msg
			if (r) print "from :" r
			for (i = 0; i < files; i++) {
				if (r && (i % step || i / step >= changed))
					continue
				content = "file " i " release " r "\n"
				print "M 100644 inline " path(i)
				print "data " length(content)
				printf "%s", content
			}
			print ""
			print "tag " name
			print "from :" (r + 1)
			print "tagger Perf <perf@example.org> " (when + r * 86400) " +0000"
			print "data " length(msg); print msg
		}
	}'
}

# setup SHAPE: the repository $work/SHAPE checked out at the start, its
# shape checked; sets start_SHAPE and target_SHAPE.
setup () {
	s_files=$(files_of $1) s_dirs=$(dirs_of $1)
	echo "generating the $1 tree: $s_files files in $s_dirs directories" >&2
	git init -q -b master "$work/$1" && cd "$work/$1" || die "cannot make the repository"
	git config user.name "Rolling Bench" && git config user.email bench@example.org
	history $1 | git fast-import --quiet || die "fast-import failed"
	test "$(git ls-tree -r --name-only v6.0 | wc -l)" = "$s_files" ||
		die "$1: v6.0 should have $s_files files"
	git ls-tree -r -d --name-only v6.0 >"$work/dirs.$1"
	s_found="$(grep -c '' "$work/dirs.$1") $(awk -F/ 'NF > m { m = NF } END { print m }' "$work/dirs.$1")"
	test "$s_found" = "$s_dirs $(test $1 = kernel && echo $KERNEL_DEPTH || echo 1)" ||
		die "$1: v6.0 has $s_found (directories, depth), not the shape's"
	git rolling init -q --preset linux --at v6.0.1 rolling || die "init failed"
	git checkout -q rolling || die "checkout failed"
	s_start=$(git rev-parse HEAD)
	git rolling advance -q rolling || die "advance failed"
	s_target=$(git rev-parse HEAD)
	test "$(git diff --name-only $s_start $s_target | wc -l)" = "$CHANGED" ||
		die "$1: a step should change $CHANGED files"
	test -z "$(git status --porcelain)" || die "$1: advance left the work tree dirty"
	eval "start_$1=$s_start target_$1=$s_target"
}

for shape in $SHAPES
do
	setup $shape
done

# back to the start: branch, index and files, the index refreshed
reset_start () {
	git reset -q --hard "$1" && git update-index -q --refresh
}

echo "measuring ($RUNS rounds; the shapes in turn)" >&2
i=0
while test $i -le "$RUNS"
do
	for shape in $SHAPES
	do
		cd "$work/$shape" || exit 1
		eval "start=\$start_$shape target=\$target_$shape"
		reset_start $start || die "reset failed"
		t0=$(date +%s%N)
		git rolling advance -q rolling || die "$shape: advance failed"
		t1=$(date +%s%N)
		test "$(git rev-parse HEAD)" = "$target" || die "$shape: advance made another commit"
		reset_start $start || die "reset failed"
		t2=$(date +%s%N)
		git merge -q --ff-only "$target" || die "$shape: merge failed"
		t3=$(date +%s%N)
		# the first round is a warm-up
		if test $i -gt 0
		then
			echo $(((t1 - t0) / 1000)) >>"$work/advance.$shape"
			echo $(((t3 - t2) / 1000)) >>"$work/merge.$shape"
		fi
	done
	i=$((i + 1))
done
median () {
	sort -n "$1" | sed -n "$(((RUNS + 1) / 2))p"
}

echo
echo "p2100-advance-worktree: $CHANGED files changed by the step; medians of $RUNS rounds"
printf '%-44s %9s %11s %8s\n' "" advance "merge --ff" ratio
for shape in $SHAPES
do
	case $shape in
	flat) label="flat: $(files_of flat) files in 400 directories" ;;
	kernel) label="kernel: $(files_of kernel) in $(dirs_of kernel), $KERNEL_DEPTH deep" ;;
	each) label="each: $(files_of each) files, a directory each" ;;
	esac
	eval "t=\$TARGET_$shape"
	awk -v l="$label" -v a="$(median "$work/advance.$shape")" -v m="$(median "$work/merge.$shape")" \
	    -v t="$t" 'BEGIN {
		r = a / m
		printf "%-44s %7.3f s %9.3f s %6.2f x  %s (target <= %s x)\n", l, a / 1e6, m / 1e6, r,
			(r <= t ? "PASS" : "MISS"), t }'
done
