# lib-small-fs.sh - a small file system that the test fills, for tests of
# what a command leaves when the disk is full.  Source after test-lib.sh.
#
# The file system is mounted on $SMALL (a directory of the trash
# directory) by small_fs_mount and removed by small_fs_umount and,
# whatever happens, when the script exits.  Mounting needs root: where
# it is impossible, the prerequisite SMALL_FS is not set and the script
# says why in $small_fs_why.  EXT2 is set where a loop-mounted ext2 image
# can be made as well.
#
#   small_fs_mount tmpfs SIZE   a tmpfs of SIZE (as mount -o size= reads
#                               it); its unit is a page: every file that
#                               is not empty takes at least one, and a
#                               directory or a rename takes none
#   small_fs_mount ext2 KIB     an ext2 image of KIB 1 KiB blocks, with
#                               no blocks reserved for root: directories
#                               take blocks too
#   small_fs_umount
#   small_fs_leave BYTES  fill it to leave at most BYTES free, in units
#                         of $small_fs_page bytes; $small_fs_left says
#                         how many
#   small_fs_free         how many bytes are free
#   small_fs_unfill       take the filler away

SMALL=$TRASH_DIRECTORY/small

small_fs_probe_ () {
	if test "$(id -u)" != 0
	then
		small_fs_why="mounting a small file system needs root"
		return 1
	fi
	mkdir -p "$TRASH_DIRECTORY/small-probe" &&
	if mount -t tmpfs -o size=64k tmpfs "$TRASH_DIRECTORY/small-probe" 2>/dev/null
	then
		umount "$TRASH_DIRECTORY/small-probe" &&
		rmdir "$TRASH_DIRECTORY/small-probe"
	else
		rmdir "$TRASH_DIRECTORY/small-probe"
		small_fs_why="cannot mount a tmpfs here (mount -t tmpfs failed)"
		return 1
	fi
}

small_fs_probe_ && test_set_prereq SMALL_FS &&
command -v mkfs.ext2 >/dev/null 2>&1 && test -e /dev/loop-control &&
test_set_prereq EXT2

small_fs_mounted_=
small_fs_backing_=
small_fs_umount () {
	test -z "$small_fs_mounted_" || umount "$SMALL" || return 1
	small_fs_mounted_=
	test -z "$small_fs_backing_" || umount "$SMALL.img" || return 1
	small_fs_backing_=
}

# Never leave a mount behind in the trash directory: rm -rf would not
# remove it, and the next run could not start.
small_fs_on_exit_ () {
	small_fs_code_=$?
	test -z "$small_fs_mounted_" || umount "$SMALL" 2>/dev/null || umount -l "$SMALL"
	test -z "$small_fs_backing_" || umount "$SMALL.img" 2>/dev/null || umount -l "$SMALL.img"
	test_status_ $small_fs_code_
	test_on_exit_
}
trap 'small_fs_on_exit_' EXIT

small_fs_mount () {
	mkdir -p "$SMALL" &&
	case $1 in
	tmpfs)
		mount -t tmpfs -o "size=$2" tmpfs "$SMALL" ;;
	ext2)
		# The image on a tmpfs of its own: the loop device writes
		# through to it, and a disk would make every run slow.
		mkdir -p "$SMALL.img" &&
		mount -t tmpfs -o "size=$(($2 + 1024))k" tmpfs "$SMALL.img" &&
		small_fs_backing_=t &&
		truncate -s "$2"k "$SMALL.img/image" &&
		mkfs.ext2 -q -F -m 0 -b 1024 "$SMALL.img/image" &&
		mount -o loop "$SMALL.img/image" "$SMALL" ;;
	esac &&
	small_fs_kind_=$1 &&
	small_fs_mounted_=t &&
	small_fs_page=$(stat -f -c %S "$SMALL")
}

small_fs_free () {
	echo $(($(stat -f -c %f "$SMALL") * small_fs_page))
}

small_fs_unfill () {
	! test -e "$SMALL/filler" || rm -rf "$SMALL/filler"
}

# One big file to come near, then files of one unit each: a big file
# of ext2 takes indirect blocks as well, and would overshoot (a file of
# a tmpfs takes its pages and no more: there the big file alone lands
# on BYTES, when BYTES is a whole number of pages).  The unit
# files come in batches of all but one of the units still to fill (one
# head | split for the lot, where a process per unit made most of the
# cost of a sweep), then one at a time: a batch that takes a directory
# block as well lands on BYTES at most, like a single file.  The free
# space it leaves is in $small_fs_left.
small_fs_leave () {
	small_fs_unfill &&
	mkdir "$SMALL/filler" &&
	sfl_free=$(small_fs_free) &&
	sfl_big=$(((sfl_free - $1) / small_fs_page)) &&
	if test "$small_fs_kind_" != tmpfs
	then
		sfl_big=$((sfl_big - sfl_big / 200 - 4))
	fi &&
	if test $sfl_big -gt 0
	then
		{ fallocate -l $((sfl_big * small_fs_page)) "$SMALL/filler/big" 2>/dev/null ||
		  head -c $((sfl_big * small_fs_page)) /dev/zero >"$SMALL/filler/big"; } &&
		sfl_free=$(small_fs_free)
	fi &&
	sfl_n=0 &&
	while test $sfl_free -gt "$1"
	do
		sfl_k=$(((sfl_free - $1 + small_fs_page - 1) / small_fs_page - 1)) &&
		test $sfl_k -gt 0 || sfl_k=1
		head -c $((sfl_k * small_fs_page)) /dev/zero 2>/dev/null |
		split -b $small_fs_page -a 6 --numeric-suffixes=$((sfl_n + 1)) - \
			"$SMALL/filler/u" 2>/dev/null
		sfl_n=$((sfl_n + sfl_k)) &&
		sfl_was=$sfl_free &&
		sfl_free=$(small_fs_free) &&
		test $sfl_free -lt $sfl_was || break
	done &&
	small_fs_left=$sfl_free &&
	test $sfl_free -le "$1"
}
