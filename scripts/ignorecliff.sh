#!/bin/sh
# omh find beside git status on a 5,000-note store whose .gitignore has
# 300,000 lines (generated-file paths, folder names, "*.ext" and "name*"
# patterns, as long generated ignore files hold).
#
#   scripts/ignorecliff.sh WORK [OMH]
#
# WORK is an empty folder of your own; OMH an omh binary (default: built
# from this checkout); ROUNDS (default 5) how many times each is timed.
# Prints, as wall and CPU (user + system) seconds: git status (median), the
# first omh find (no cache), and omh find after each of ROUNDS new
# untracked notes (median), and the ratio of the last to git status. On a
# machine others share, the CPU figures are the steadier.
set -eu
work=$1
mkdir -p "$work"
work=$(cd "$work" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
omh=${2:-}
if [ -z "$omh" ]; then
	(cd "$here" && go build -o "$work/omh" ./cmd/omh)
	omh=$work/omh
fi
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$work OMH_LOCAL_DIR=$work/private
repo=$work/store
if [ ! -d "$repo/.git" ]; then
	mkdir -p "$repo"
	git -C "$repo" init -q -b main
	awk -v root="$repo" 'BEGIN {
		for (i = 0; i < 5000; i++) {
			f = sprintf("%s/topic%02d/note%05d.md", root, i % 50, i)
			if (i < 50) system("mkdir -p " root "/" sprintf("topic%02d", i))
			printf "# Note %d\n\nThe walrus note number %d.\n", i, i > f
			close(f)
		}
		g = root "/.gitignore"
		for (i = 0; i < 300000; i++) {
			k = i % 4
			if (k == 0) printf "build/gen%d/out%d.o\n", i % 997, i > g
			else if (k == 1) printf "cache%d/\n", i > g
			else if (k == 2) printf "*.tmp%d\n", i > g
			else printf "scratch%d*\n", i > g
		}
	}'
	git -C "$repo" add -A
	git -C "$repo" -c user.name=t -c user.email=t@example.com commit -qm notes
fi
rounds=${ROUNDS:-5}
# median of "wall cpu" lines, each column on its own
median() {
	cat >"$work/m.txt"
	for col in 1 2; do
		cut -d' ' -f$col "$work/m.txt" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
	done | paste -sd' '
}
timed() {
	/usr/bin/time -f '%e %U %S' -o "$work/time.txt" "$@" >/dev/null 2>&1 || true
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$work/time.txt"
}
status=$(for i in $(seq "$rounds"); do timed git -C "$repo" status --porcelain; done | median)
rm -rf "$repo/.git/omh"
first=$(timed "$omh" -C "$repo" find walrus)
after=$(for i in $(seq "$rounds"); do
	printf '# New %d\n\nA new walrus note.\n' "$i" >"$repo/topic0$((i % 10))/new-$(date +%s%N).md"
	timed "$omh" -C "$repo" find walrus
done | median)
echo "$status $first $after" | awk '{ printf "git status %ss wall %ss CPU; omh find first %ss wall %ss CPU; after a new untracked note %ss wall %ss CPU (%.2f× git status wall, %.2f× CPU)\n", $1, $2, $3, $4, $5, $6, $5 / $1, $6 / $2 }'
