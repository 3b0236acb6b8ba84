#!/bin/sh
# Builds omh and the benchmark, then measures omh against rg and SQLite FTS5
# on deterministic synthetic git vaults and, when ../shared/data is beside
# the checkout, a clone of the real vba-docs vault (see cmd/bench/main.go).
#
# Usage: sh scripts/bench.sh [bench flags…]
#   sh scripts/bench.sh                         N = 10,000 and 100,000 and vba-docs, 20 runs
#   sh scripts/bench.sh -n 300 -runs 3 -data none   a smoke run (about a minute)
#   sh scripts/bench.sh -n 10000 -base /tmp/omh-main   this build beside another, same rounds
#     (build the other as this one is: CGO_ENABLED=0 go build -o /tmp/omh-main ./cmd/omh)
#   sh scripts/bench.sh -n 20 -n 10000 -data none -phase hook   one measurement: the post-commit hook's cost
#   BENCH_WORK=/data/omh-bench sh scripts/bench.sh -n 10000
#
# Vaults are cached in $BENCH_WORK (default /tmp/omh-bench) and reused by
# later runs with the same -seed and -n. Tables go to standard output and to
# $BENCH_WORK/report.txt; each vault's numbers to $BENCH_WORK/results-NAME.json.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=${BENCH_WORK:-${TMPDIR:-/tmp}/omh-bench}
mkdir -p "$work/bin"
cd "$root"
# -buildvcs=auto wins over a GOFLAGS=-buildvcs=false, so `omh version`
# names the revision that was measured. CGO_ENABLED=0 builds omh as it is
# installed and released (see README), static: linked against the C library
# instead, omh version took 13.8 ms rather than 10.4 here (dynamic loading,
# and threads started through it).
CGO_ENABLED=0 go build -buildvcs=auto -o "$work/bin/omh" ./cmd/omh
go build -o "$work/bin/omh-bench-fts" ./cmd/bench/fts
go build -o "$work/bin/omh-bench" ./cmd/bench
echo "bench: work folder $work; tables also in $work/report.txt, numbers in $work/results-NAME.json" >&2
# POSIX sh has no pipefail: the bench's exit status goes through a file.
rm -f "$work/.bench-status"
{
	status=0
	"$work/bin/omh-bench" -omh "$work/bin/omh" -fts "$work/bin/omh-bench-fts" -work "$work" "$@" || status=$?
	echo "$status" >"$work/.bench-status"
} | tee "$work/report.txt"
exit "$(cat "$work/.bench-status")"
