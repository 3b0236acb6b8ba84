#!/bin/sh
# Kill omh -9 at random moments of mv, promote and proof retract on a
# 2,000-note store, and check after each kill that the next omh command
# leaves the store exactly as before the command or as after it.
#
#   scripts/killloop.sh WORK [ROUNDS]
#
# WORK is an empty folder of your own; ROUNDS (default 30) kills per
# command. It prints, per command, how many rounds were killed before the
# command finished, how many ended as before and as after, and how many
# ended neither way (half done: the figure that must be 0).
set -eu
work=$1
rounds=${2:-30}
mkdir -p "$work"
work=$(cd "$work" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
# The crashpoints tag turns on the crash switches (OMH_CRASH_BEFORE_*),
# which omh as built for use ignores.
(cd "$here" && go build -tags crashpoints -o "$work/omh" ./cmd/omh)
omh=$work/omh
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$work
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com

# The store: 2,000 notes; topic/hubA linked from 641 of them; a committed
# finding; 40 private notes that link to each other in a ring.
seed=$work/seed
rm -rf "$seed" "$work/seed-private"
mkdir -p "$seed/topic" "$seed/finding" "$work/seed-private/surprise"
git -C "$seed" init -q -b main
printf '# Hub A\n\nThe hub.\n' >"$seed/topic/hubA.md"
i=1
while [ $i -le 2000 ]; do
	n=$(printf '%05d' $i)
	if [ $((i % 3)) -eq 0 ] && [ $i -le 1923 ]; then
		printf '# Note %s\n\nSee [[hubA]] and [[topic/hubA|the hub]].\n' "$n" >"$seed/topic/n$n.md"
	else
		printf '# Note %s\n\nNothing links here.\n' "$n" >"$seed/topic/n$n.md"
	fi
	i=$((i + 1))
done
printf -- '---\ntype: finding\n---\n# Claim\n\n## Claim\nIt holds.\n' >"$seed/finding/claim.md"
git -C "$seed" add -A
git -C "$seed" commit -qm notes
keys=""
i=1
while [ $i -le 40 ]; do
	printf '# Private %d\n\nSee [[p%d]] and [[topic/n00001]].\n' $i $((i % 40 + 1)) >"$work/seed-private/surprise/p$i.md"
	keys="$keys surprise/p$i"
	i=$((i + 1))
done
OMH_LOCAL_DIR=$work/seed-private "$omh" -C "$seed" index >/dev/null
linked=$(grep -l 'hubA' "$seed"/topic/n*.md | wc -l)
echo "store: 2000 notes, topic/hubA linked from $linked"

repo=$work/repo
private=$work/private
restore() {
	rm -rf "$repo" "$private"
	cp -a "$seed" "$repo"
	cp -a "$work/seed-private" "$private"
}
# state prints one line that changes with any file, folder or index entry.
state() {
	{
		(cd "$repo" && find . -path ./.git -prune -o -print | LC_ALL=C sort)
		(cd "$repo" && find . -path ./.git -prune -o -type f -print0 | xargs -0 sha1sum | LC_ALL=C sort)
		(cd "$private" && find . -print | LC_ALL=C sort)
		(cd "$private" && find . -type f -print0 | xargs -0 -r sha1sum | LC_ALL=C sort)
		git -C "$repo" ls-files --stage
		ls "$repo/.git/omh-journal/manifest.json" 2>/dev/null || true
	} | sha1sum | cut -c1-16
}
now() { date +%s.%N; }

measure() {
	name=$1
	shift
	restore
	before=$(state)
	t0=$(now)
	OMH_LOCAL_DIR=$private "$omh" -C "$repo" "$@" >/dev/null
	t1=$(now)
	after=$(state)
	took=$(echo "$t1 - $t0" | bc)
	killed=0 asbefore=0 asafter=0 half=0 r=1
	while [ $r -le "$rounds" ]; do
		restore
		# Odd rounds kill anywhere in the run, even ones late in it, where
		# the writes are (a refresh and the planning come first).
		delay=$(awk -v s="$r" -v d="$took" 'BEGIN { srand(s * 7919); f = rand(); if (s % 2 == 0) f = 0.8 + 0.25 * f; printf "%.3f", f * d }')
		OMH_LOCAL_DIR=$private "$omh" -C "$repo" "$@" >/dev/null 2>&1 &
		pid=$!
		sleep "$delay"
		kill -9 $pid 2>/dev/null || true
		status=0
		wait $pid || status=$?
		[ $status -eq 137 ] && killed=$((killed + 1))
		# A git command omh started runs on after omh is killed.
		while [ -e "$repo/.git/index.lock" ]; do sleep 0.05; done
		OMH_LOCAL_DIR=$private "$omh" -C "$repo" status >/dev/null 2>"$work/next.err" || {
			echo "round $r: the next command failed: $(cat "$work/next.err")"
		}
		got=$(state)
		if [ "$got" = "$before" ]; then
			asbefore=$((asbefore + 1))
		elif [ "$got" = "$after" ]; then
			asafter=$((asafter + 1))
		else
			half=$((half + 1))
			echo "round $r (killed after ${delay}s): half done"
		fi
		r=$((r + 1))
	done
	echo "$name: ${took}s uninterrupted; $rounds rounds, $killed killed mid-way; as before $asbefore, as after $asafter, half done $half"
}

measure "mv of a hub" mv topic/hubA topic/hubB
# shellcheck disable=SC2086
measure "promote of 40 notes" promote $keys
measure "retract" proof retract finding/claim --team --reason "the run was wrong"
