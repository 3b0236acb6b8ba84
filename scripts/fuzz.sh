#!/bin/sh
# Run omh's fuzz targets one after another, each seeded with every note of
# the real vaults (besides the seeds in the code), on one core.
#
#   scripts/fuzz.sh DATA WORK [MINUTES]
#
# DATA is the shared data folder (its vaults/*.bundle are cloned into
# WORK), MINUTES (default 10) how long each target runs. Up to 1,500 notes
# of each vault, spread over it, seed each target; the corpus lives in a
# Go cache of WORK's own. A failing input is written by go test under the
# package's testdata/fuzz/, where it stays as a regression test. The last
# line of each run (its executions) is printed.
set -eu
data=$1
work=$2
minutes=${3:-10}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
for b in "$data"/vaults/*.bundle; do
	name=$(basename "$b" .bundle)
	[ -d "$work/$name" ] || git clone -q "$b" "$work/$name"
done
export GOCACHE="$work/gocache"
cache=$GOCACHE/fuzz/github.com/omh-notes/omh

# seed TARGET PKG KIND writes one corpus entry per note (KIND bytes: the
# note; string: its first 4 KiB; pair: its path and the next note's path).
seed() {
	dir=$cache/$2/$1
	mkdir -p "$dir"
	for v in "$work"/*/.git; do
		v=$(dirname "$v")
		find "$v" -name '*.md' -not -path '*/.git/*' -size -64k | LC_ALL=C sort >"$work/notes.txt"
		awk -v n="$(wc -l <"$work/notes.txt")" 'BEGIN { step = int(n / 1500) + 1 } NR % step == 0' "$work/notes.txt"
	done | python3 -c '
import sys, os, hashlib
kind, out, work = sys.argv[1], sys.argv[2], sys.argv[3]
def lit(b):
    s = "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else "\\x%02x" % c for c in b)
    return "\"" + s + "\""
paths = [p.rstrip("\n") for p in sys.stdin]
for i, p in enumerate(paths):
    body = open(p, "rb").read()
    under = lambda q: os.path.relpath(q, work).split(os.sep, 1)[1].encode()  # the path inside its vault
    rel, nxt = under(p), under(paths[(i + 1) % len(paths)])
    if kind == "bytes":
        entry = "[]byte(%s)\n" % lit(body)
    elif kind == "string":
        entry = "string(%s)\n" % lit(body[:4096])
    else:
        entry = "string(%s)\nstring(%s)\n" % (lit(rel), lit(nxt))
    data = ("go test fuzz v1\n" + entry).encode()
    open(os.path.join(out, "vault-" + hashlib.sha1(data).hexdigest()[:16]), "wb").write(data)
' "$3" "$dir" "$work"
	echo "$1: $(ls "$dir" | wc -l) corpus entries"
}

run() {
	(cd "$here" && go test -run '^$' -fuzz "^$1\$" -fuzztime "${minutes}m" -parallel 1 "./$2") >"$work/$1.log" 2>&1 || {
		echo "$1: FAILED"
		tail -20 "$work/$1.log"
		return
	}
	echo "$1: $(grep 'execs:' "$work/$1.log" | tail -1)"
}

seed FuzzParse vault bytes
seed FuzzSplitFrontmatter vault bytes
seed FuzzRewriteLink vault/rename bytes
seed FuzzKeyOf vault pair
seed FuzzEachToken token string
for t in FuzzParse FuzzSplitFrontmatter FuzzKeyOf; do
	run $t vault
done
run FuzzRewriteLink vault/rename
run FuzzEachToken token
