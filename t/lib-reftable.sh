# Reftables made in layouts git's commands do not choose, and damaged on
# purpose, for the scripts that check git rolling reads a reftable
# repository as git reads it (t804x).  Sourced after test-lib.sh.
#
# Tables are written by test-reftable (t/helper/test-reftable.c, git's
# own writer), then edited in place by reftable_edit, which knows the
# format (git's Documentation/technical/reftable.adoc) as far as the
# edits need: blocks, ref records, restart points, the footer and its
# CRC-32.

if git init -q --ref-format=reftable probe-reftable 2>/dev/null &&
	test "$(git -C probe-reftable rev-parse --show-ref-format)" = reftable
then
	test_set_prereq REFTABLE
else
	skip_all="git $(git version | cut -d" " -f3) makes no reftable repository"
fi
rm -rf probe-reftable

# No stack is compacted behind a test's back: the tables it made stay.
GIT_TEST_REFTABLE_AUTOCOMPACTION=false
export GIT_TEST_REFTABLE_AUTOCOMPACTION

# reftable_repo DIR: a reftable repository with two commits, "one" and
# "two" (tagged so), their ids in the files old and new.
reftable_repo () {
	git init -q --ref-format=reftable "$1" &&
	test_commit -C "$1" one &&
	test_commit -C "$1" two &&
	git -C "$1" rev-parse HEAD~1 >old &&
	git -C "$1" rev-parse HEAD >new
}

# rt_refs [DIR]: test-rolling refs in DIR, under memcheck in `make valgrind`.
rt_refs () {
	(cd "${1:-.}" && rt_run_ refs)
}

# rt_ref DIR NAME...: test-rolling ref in DIR, as rt_refs.
rt_ref () {
	rt_ref_dir_=$1 &&
	shift &&
	(cd "$rt_ref_dir_" && rt_run_ ref "$@")
}

rt_run_ () {
	if test -n "$GIT_ROLLING_TEST_VALGRIND"
	then
		"$GIT_ROLLING_BUILD_DIR/t/valgrind/memcheck" \
			"$GIT_ROLLING_BUILD_DIR/t/helper/test-rolling" "$@"
	else
		test-rolling "$@"
	fi
}

# same_refs DIR: test-rolling and git list the same refs in DIR.
same_refs () {
	(cd "$1" &&
	 git for-each-ref --format="%(objectname) %(*objectname) %(refname) %(symref)") >expect &&
	rt_refs "$1" >actual &&
	test_cmp expect actual
}

# git_ref_lines DIR NAME...: each NAME as git resolves it in DIR, in the
# format of test-rolling ref: a symbolic ref's own target, not the end
# of its chain.
git_ref_lines () {
	gr_dir=$1 &&
	shift &&
	for gr_name
	do
		if gr_target=$(git -C "$gr_dir" symbolic-ref --no-recurse -q "$gr_name")
		then
			echo "$gr_name -> $gr_target"
		elif gr_oid=$(git -C "$gr_dir" rev-parse -q --verify "$gr_name")
		then
			echo "$gr_name $gr_oid"
		else
			echo "$gr_name missing"
		fi
	done
}

# same_ref DIR NAME...: each NAME as git reads it and as test-rolling does.
same_ref () {
	sr_dir=$1 &&
	shift &&
	git_ref_lines "$sr_dir" "$@" >expect &&
	rt_ref "$sr_dir" "$@" >actual &&
	test_cmp expect actual
}

# newest_table DIR: the path of the newest table of the stack in DIR.
newest_table () {
	echo "$1/$(tail -n 1 "$1/tables.list")"
}

# reftable_edit TABLE COMMAND [ARGS]: read or change TABLE in place.
#
#   footer FIELD VALUE   set a footer field (ref_index, obj, obj_index,
#                        log, log_index) and the footer's CRC-32 anew
#   crc                  flip a bit of the footer's CRC-32
#   blocks               "<offset> <type> <length>" of each block, the
#                        ref blocks read as git reads them
#   records BLOCK        "<offset> <prefix> <suffix> <type> <name>" of each
#                        record of ref block number BLOCK (from 0)
#   restarts BLOCK       "<offset> <value>" of each restart point of it
#   poke OFFSET BYTE...  set bytes (decimal) from OFFSET on
#   replace OLD NEW      replace the one occurrence of the string OLD
#                        by NEW, as long
reftable_edit () {
	python3 - "$@" <<-\EOF
	import sys, zlib
	path, cmd, args = sys.argv[1], sys.argv[2], sys.argv[3:]
	data = bytearray(open(path, "rb").read())

	def be(off, n):
	    return int.from_bytes(data[off:off + n], "big")

	version = data[4]
	header = 24 if version == 1 else 28
	footer_len = 68 if version == 1 else 72
	block_size = be(5, 3)
	footer = len(data) - footer_len
	fields = ["ref_index", "obj", "obj_index", "log", "log_index"]

	def varint(off):
	    v = data[off] & 0x7f
	    while data[off] & 0x80:
	        off += 1
	        v = ((v + 1) << 7) | (data[off] & 0x7f)
	    return v, off + 1

	def blocks():
	    # As git's table iterator: block after block while of type 'r',
	    # the next at the block size when padded, else right after.
	    pos, out = 0, []
	    while pos < footer:
	        at = pos if pos else header
	        typ = chr(data[at])
	        end = pos + be(at + 1, 3)
	        out.append((pos, typ, end - pos))
	        if typ != "r":
	            break
	        nxt = pos + block_size if block_size else end
	        if end < nxt and data[end:nxt].strip(b"\0"):
	            nxt = end      # unpadded
	        pos = nxt
	    return out

	def block(n):
	    pos, typ, length = [b for b in blocks() if b[1] == "r"][n]
	    end = pos + length
	    count = be(end - 2, 2)
	    return pos, (pos if pos else header) + 4, end - 2 - 3 * count, count

	def save():
	    open(path, "wb").write(data)

	if cmd == "footer":
	    off = footer + header + 8 * fields.index(args[0])
	    data[off:off + 8] = int(args[1]).to_bytes(8, "big")
	    crc = zlib.crc32(bytes(data[footer:len(data) - 4]))
	    data[len(data) - 4:] = crc.to_bytes(4, "big")
	    save()
	elif cmd == "crc":
	    data[len(data) - 1] ^= 1
	    save()
	elif cmd == "blocks":
	    for pos, typ, length in blocks():
	        print(pos, typ, length)
	elif cmd == "records":
	    pos, off, restarts, count = block(int(args[0]))
	    name = b""
	    while off < restarts:
	        start = off
	        prefix, off = varint(off)
	        x, off = varint(off)
	        suffix, typ = x >> 3, x & 7
	        name = name[:prefix] + data[off:off + suffix]
	        off += suffix
	        _, off = varint(off)          # update index delta
	        if typ == 1:
	            off += 20
	        elif typ == 2:
	            off += 40
	        elif typ == 3:
	            n, off = varint(off)
	            off += n
	        print(start, prefix, suffix, typ, name.decode("latin-1"))
	elif cmd == "restarts":
	    pos, off, restarts, count = block(int(args[0]))
	    for i in range(count):
	        print(restarts + 3 * i, be(restarts + 3 * i, 3))
	elif cmd == "poke":
	    off = int(args[0])
	    for i, b in enumerate(args[1:]):
	        data[off + i] = int(b)
	    save()
	elif cmd == "replace":
	    old, new = args[0].encode("latin-1"), args[1].encode("latin-1")
	    assert len(old) == len(new) and data.count(old) == 1, args
	    i = data.find(old)
	    data[i:i + len(old)] = new
	    save()
	else:
	    sys.exit("reftable_edit: unknown command " + cmd)
	EOF
}
