#!/bin/sh
# Kill omh -9 at random moments of mv, promote, proof retract and new on a
# 2,000-note store, and check after each kill that the next omh command
# leaves the store exactly as before the command or as after it. Then, per
# command, crash it at a random journal step (OMH_CRASH_BEFORE_JOURNAL_STEP)
# and copy the repository (cp -a) or move it to another folder before the
# next command: the change must finish, or be thrown away, in the copy or
# the moved folder that runs the next command, and a copy must leave the
# original as the crash left it (its own next command finishes it there).
#
#   scripts/killloop.sh WORK [ROUNDS]
#
# WORK is an empty folder of your own; ROUNDS (default 30) rounds per
# command and kind of round. It prints, per command and kind, how many
# rounds were cut short before the command finished, how many ended as
# before and as after, and how many ended neither way (half done: the
# figure that must be 0). The same rounds of mv run again on the store
# checked out with CRLF line ends (*.md text eol=crlf), and a find is
# killed while it replaces a cache folder copied in from another
# repository: the next find must answer as one with a fresh cache does.
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
# seedcrlf is the store with its notes checked out with CRLF line ends, as
# on a team with Windows machines: git keeps LF, the working tree CRLF.
seedcrlf=$work/seed-crlf
rm -rf "$seedcrlf"
cp -a "$seed" "$seedcrlf"
printf '*.md text eol=crlf\n' >"$seedcrlf/.gitattributes"
git -C "$seedcrlf" add .gitattributes
git -C "$seedcrlf" commit -qm "CRLF in the working tree"
find "$seedcrlf/topic" "$seedcrlf/finding" -name '*.md' -exec rm {} +
git -C "$seedcrlf" checkout -- .
OMH_LOCAL_DIR=$work/seed-private "$omh" -C "$seedcrlf" index >/dev/null
# tree prints what a repository holds (at $1, default $repo), in paths
# relative to it so that a copy holding the same compares equal: every
# file, folder and index entry, a change left to finish, and git's index
# lock or the copy of the index omh stages through.
tree() {
	d=${1:-$repo}
	waitgit "$d"
	(cd "$d" && find . -path ./.git -prune -o -print | LC_ALL=C sort)
	(cd "$d" && find . -path ./.git -prune -o -type f -print0 | xargs -0 sha1sum | LC_ALL=C sort)
	git -C "$d" ls-files --stage
	(cd "$d" && ls .git/omh-journal/manifest.json .git/index.lock .git/index.omh 2>/dev/null) || true
}
# listing prints everything in the repository (at $1) and the private
# folder; state one line that changes with any of it, keeping the listing
# in $work/state.list to say what differs.
listing() {
	tree "$@"
	(cd "$private" && find . -print | LC_ALL=C sort)
	(cd "$private" && find . -type f -print0 | xargs -0 -r sha1sum | LC_ALL=C sort)
}
state() {
	listing "$@" >"$work/state.list"
	sha1sum <"$work/state.list" | cut -c1-16
}
# keep NAME keeps the last state's listing as NAME; differs NAME prints
# the first lines by which the last state differs from it.
keep() { cp "$work/state.list" "$work/$1.list"; }
differs() { diff "$work/$1.list" "$work/state.list" | head -6 | sed 's/^/    /'; }
# waitgit waits for a git command a killed omh started, which runs on: while
# git's index lock is held by anyone but omh (a killed omh's is left for
# the next omh command to finish and let go).
waitgit() {
	while [ -e "$1/.git/index.lock" ] && ! grep -q '^omh journal' "$1/.git/index.lock" 2>/dev/null; do sleep 0.05; done
}
now() { date +%s.%N; }

# killafter DELAY ARGS... runs omh ARGS in the repository and kills it -9
# after DELAY seconds, counting in killed the runs it cut short.
killafter() {
	delay=$1
	shift
	OMH_LOCAL_DIR=$private "$omh" -C "$repo" "$@" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 $pid 2>/dev/null || true
	status=0
	wait $pid || status=$?
	[ $status -eq 137 ] && killed=$((killed + 1))
	return 0
}

measure() {
	name=$1
	shift
	restore
	before=$(state)
	t0=$(now)
	OMH_LOCAL_DIR=$private "$omh" -C "$repo" "$@" >/dev/null
	t1=$(now)
	after=$(state)
	keep after
	took=$(echo "$t1 - $t0" | bc)
	killed=0 asbefore=0 asafter=0 half=0 r=1
	while [ $r -le "$rounds" ]; do
		restore
		# Odd rounds kill anywhere in the run, even ones late in it, where
		# the writes are (a refresh and the planning come first).
		delay=$(awk -v s="$r" -v d="$took" 'BEGIN { srand(s * 7919); f = rand(); if (s % 2 == 0) f = 0.8 + 0.25 * f; printf "%.3f", f * d }')
		killafter "$delay" "$@"
		waitgit "$repo"
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
			echo "round $r (killed after ${delay}s): half done; differs from after by:"
			differs after
		fi
		r=$((r + 1))
	done
	echo "$name: ${took}s uninterrupted; $rounds rounds, $killed killed mid-way; as before $asbefore, as after $asafter, half done $half"
}

run() { # run DIR ENV... -- ARGS...: omh in DIR with the environment given
	d=$1
	shift
	env=""
	while [ "$1" != "--" ]; do
		env="$env $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	env OMH_LOCAL_DIR="$private" $env "$omh" -C "$d" "$@" >/dev/null 2>&1
}

# steps prints how many journal steps the change ARGS makes: the least k
# at which crashing before step k lets it finish (found by halving).
steps() {
	lo=1 hi=16384
	while [ $lo -lt $hi ]; do
		mid=$(((lo + hi) / 2))
		restore
		status=0
		run "$repo" OMH_CRASH_BEFORE_JOURNAL_STEP=$mid -- "$@" || status=$?
		if [ $status -eq 0 ]; then hi=$mid; else lo=$((mid + 1)); fi
	done
	echo $lo
}

# relocated crashes the change ARGS at a random step, then copies (how=cp)
# or moves (how=mv) the repository before the next command, and checks the
# change finished or was thrown away in the copy or moved folder alone.
relocated() {
	name=$1 how=$2
	shift 2
	restore
	before=$(state)
	run "$repo" -- "$@"
	after=$(state)
	keep after
	n=$(steps "$@")
	crashed=0 asbefore=0 asafter=0 half=0 r=1
	while [ $r -le "$rounds" ]; do
		restore
		# Odd rounds crash at any step, even ones in the last 40%, where
		# the manifest is written and the changes are made.
		k=$(awk -v s="$r" -v n="$n" 'BEGIN { srand(s * 104729); f = rand(); if (s % 2 == 0) f = 0.6 + 0.4 * f; k = int(f * (n - 1)) + 1; print (k < 1 ? 1 : k) }')
		status=0
		run "$repo" OMH_CRASH_BEFORE_JOURNAL_STEP="$k" -- "$@" || status=$?
		[ $status -eq 99 ] && crashed=$((crashed + 1))
		left=$(tree | sha1sum)
		other=$work/elsewhere
		rm -rf "$other"
		if [ "$how" = cp ]; then cp -a "$repo" "$other"; else mv "$repo" "$other"; fi
		run "$other" -- status || echo "round $r: the next command in the $how failed"
		got=$(state "$other")
		ok=1
		if [ "$how" = cp ]; then
			# The original is as the crash left it; its own next
			# command finishes the change there.
			if [ "$(tree | sha1sum)" != "$left" ]; then
				ok=0
				echo "round $r (crash before step $k of $n): the command in the copy changed the original"
			fi
			run "$repo" -- status || echo "round $r: the next command in the original failed"
			mine=$(state)
			if [ "$mine" != "$before" ] && [ "$mine" != "$after" ]; then
				ok=0
				echo "round $r (crash before step $k of $n): the original is half done after its own next command"
			fi
		elif [ -e "$repo" ]; then
			ok=0
			echo "round $r (crash before step $k of $n): something was written at the old path"
			rm -rf "$repo"
		fi
		if [ "$got" = "$before" ] && [ $ok -eq 1 ]; then
			asbefore=$((asbefore + 1))
		elif [ "$got" = "$after" ] && [ $ok -eq 1 ]; then
			asafter=$((asafter + 1))
		else
			half=$((half + 1))
			if [ "$got" != "$before" ] && [ "$got" != "$after" ]; then
				state "$other" >/dev/null
				echo "round $r (crash before step $k of $n): half done in the $how; differs from after by:"
				differs after
			fi
		fi
		rm -rf "$other"
		r=$((r + 1))
	done
	echo "$name, $how after a crash: $n steps; $rounds rounds, $crashed crashed mid-way; as before $asbefore, as after $asafter, half done $half"
}

each() { # each NAME ARGS...: every kind of round for one command
	name=$1
	shift
	measure "$name" "$@"
	relocated "$name" cp "$@"
	relocated "$name" mv "$@"
}

# foreign kills omh find at random moments while it replaces a cache
# folder copied in from another repository (a vault whose detected notes
# root is vault/), then checks that the next find answers as a find with
# a fresh cache does.
foreign() {
	other=$work/other
	rm -rf "$other"
	mkdir -p "$other/vault/.obsidian"
	git -C "$other" init -q -b main
	echo '{}' >"$other/vault/.obsidian/app.json"
	printf '# Readme\n' >"$other/README.md"
	for n in one two three; do printf '# %s\n\nThe hub [[one]].\n' $n >"$other/vault/$n.md"; done
	git -C "$other" add -A
	git -C "$other" commit -qm vault
	"$omh" -C "$other" find hub >/dev/null 2>&1
	restore
	rm -rf "$repo/.git/omh"
	want=$(OMH_LOCAL_DIR=$private "$omh" -C "$repo" --json find hub | sha1sum)
	t0=$(now)
	rm -rf "$repo/.git/omh"
	cp -a "$other/.git/omh" "$repo/.git/omh"
	OMH_LOCAL_DIR=$private "$omh" -C "$repo" find hub >/dev/null 2>&1
	took=$(echo "$(now) - $t0" | bc)
	killed=0 wrong=0 r=1
	while [ $r -le "$rounds" ]; do
		rm -rf "$repo/.git/omh"
		cp -a "$other/.git/omh" "$repo/.git/omh"
		delay=$(awk -v s="$r" -v d="$took" 'BEGIN { srand(s * 7919); printf "%.3f", rand() * d }')
		killafter "$delay" find hub
		got=$(OMH_LOCAL_DIR=$private "$omh" -C "$repo" --json find hub 2>"$work/next.err" | sha1sum)
		if [ "$got" != "$want" ]; then
			wrong=$((wrong + 1))
			echo "round $r (killed after ${delay}s): the next find answers otherwise: $(head -1 "$work/next.err")"
		fi
		r=$((r + 1))
	done
	echo "find replacing another repository's cache folder: ${took}s uninterrupted; $rounds rounds, $killed killed mid-way; wrong answers after $wrong"
}

each "mv of a hub" mv topic/hubA topic/hubB
# shellcheck disable=SC2086
each "promote of 40 notes" promote $keys
each "retract" proof retract finding/claim --team --reason "the run was wrong"
each "new" new surprise "The crash test" --answers "does a crash leave half a note"
foreign
seed=$seedcrlf
each "mv of a hub, notes checked out with CRLF" mv topic/hubA topic/hubB
