#!/bin/sh
# The team trial: a team of two works on one notes repository the way a new
# team would. A bare remote and two clones (ada's and bob's, each a user of
# their own on this machine), each set up by omh init (config and hooks),
# an agent in each writing notes with `omh new --body -` from the body
# docs/agents.md shows (the type's sections as headings), notes promoted,
# committed, pushed and pulled with the hooks running; then a note deleted
# and another moved without committing, a merge conflict, and a rename in
# one clone pulled into the other, which still links to the old key.
#
# It checks, printing "ok" or "FAIL" per check and exiting 1 on a failure:
#   - every note written with --body - needs no edit: lint finds nothing in
#     it, and each of its type's sections is there once;
#   - no reply (find as a tree, cards and JSON, proof find, show, links)
#     names a file deleted or moved in the working tree as a team note;
#   - lint finds the merge conflict, and names the moved key's new key for
#     the links the other clone wrote; omh mv --fix-links rewrites them,
#     after which lint is clean; lint --staged checks what is committed.
#
#   sh scripts/teamtrial.sh [WORK]
#
# WORK is an empty folder of your own (default: a new one under $TMPDIR).
set -eu
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/omh-teamtrial.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work/bin"
(cd "$here" && CGO_ENABLED=0 go build -o "$work/bin/omh" ./cmd/omh)
export PATH="$work/bin:$PATH" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset OMH_LOCAL_DIR XDG_DATA_HOME OMH_SOURCE || true

failed=0
ok() { echo "ok    $*"; }
fail() {
	echo "FAIL  $*"
	failed=$((failed + 1))
}
check() { # check WHAT COMMAND...: ok when the command succeeds
	what=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$what"; else fail "$what"; fi
}

# as USER CMD...: run a command as ada or bob: in their clone, with their
# home (their private notes live under it, named after the root commit).
as() {
	who=$1
	shift
	(cd "$work/$who" && HOME=$work/home-$who XDG_DATA_HOME=$work/home-$who/data "$@")
}

# The remote and ada's clone, with the first team notes.
rm -rf "$work/remote.git" "$work/ada" "$work/bob" "$work/home-ada" "$work/home-bob"
mkdir -p "$work/home-ada" "$work/home-bob"
git init -q --bare -b main "$work/remote.git"
git clone -q "$work/remote.git" "$work/ada" 2>/dev/null
as ada git config user.name Ada
as ada git config user.email ada@example.com
mkdir -p "$work/ada/.omh/notes/topic" "$work/ada/.omh/notes/finding"
printf '# Credentials\n\nWhere the service tokens live and how they rotate.\n' >"$work/ada/.omh/notes/topic/credentials.md"
printf '# Sandbox\n\nThe sandbox mounts the tokens; see [[topic/credentials]].\n' >"$work/ada/.omh/notes/topic/sandbox.md"
printf -- '---\ntype: finding\nrecorded: 2026-01-05\n---\n# Tokens expire after an hour\n\n## Claim\n\nService tokens expire after one hour.\n\n## Evidence\n\nThe token endpoint returns expires_in 3600; see [[topic/credentials]].\n\n## Answers\n\n- how long does a service token last\n' \
	>"$work/ada/.omh/notes/finding/tokens-expire-after-an-hour.md"
as ada omh init >/dev/null
as ada git add -A
as ada git commit -qm "first notes"
as ada git push -q origin main 2>/dev/null

# bob's clone: its first step is omh init, which installs the hooks.
git clone -q "$work/remote.git" "$work/bob" 2>/dev/null
as bob git config user.name Bob
as bob git config user.email bob@example.com
as bob omh init >/dev/null
for who in ada bob; do
	check "$who's clone has omh's hooks installed" sh -c "cd '$work/$who' && omh hooks status | grep -q 'post-commit.*installed'"
done

# An agent in each clone records notes as docs/agents.md shows: the body on
# standard input, the type's sections as headings. sections TYPE prints the
# sections a note of the type must have once.
sections() {
	case $1 in
	surprise) echo "Expected Observed Evidence Answers" ;;
	finding) echo "Claim Evidence Answers" ;;
	decision) echo "Decision Context Answers" ;;
	issue) echo "Problem Answers" ;;
	citation) echo "Source Answers" ;;
	esac
}
# body TYPE: what the agent writes, a paragraph under each section but Answers.
body() {
	for s in $(sections "$1"); do
		[ "$s" = Answers ] && continue
		printf '## %s\n\nWhat the agent found for %s, with `make sandbox-test` as the command.\n\n' "$s" "$s"
	done
}
written=""
n=0
for who in ada bob; do
	for type in surprise finding decision issue citation; do
		n=$((n + 1))
		title="The $type an agent of $who recorded, number $n"
		out=$(body "$type" | as "$who" omh new "$type" "$title" --answers "what did $who's agent learn about $type $n" \
			--link topic/credentials --body -) || {
			fail "omh new $type for $who"
			continue
		}
		key=$(echo "$out" | sed -n 's/^wrote //p')
		path=$(echo "$out" | sed -n 's/^path: //p')
		written="$written $who:$key"
		if as "$who" omh lint "$key" | grep -q '^no problems in 1 note$'; then
			ok "$who's $type needs no edit: lint finds nothing in $key"
		else
			fail "$who's $type: lint finds problems in $key"
			as "$who" omh lint "$key" || true
		fi
		once=yes
		want=$(sections "$type")
		case $type in issue | citation) want="$want Links" ;; esac # where --link goes, out of the statement
		for s in $want; do
			[ "$(grep -c "^## $s\$" "$path")" = 1 ] || once="no ($s)"
		done
		[ "$(grep -c '^## ' "$path")" = "$(echo $want | wc -w)" ] || once="no (other sections)"
		if [ "$once" = yes ]; then ok "$who's $type has each of its sections once"; else fail "$who's $type sections once: $once"; fi
	done
done

# ada promotes two of her notes, commits and pushes; bob pulls (the hooks
# refresh his cache in the background; omh index waits for that).
promoted=""
for entry in $written; do
	case $entry in ada:finding/* | ada:decision/*) promoted="$promoted ${entry#ada:}" ;; esac
done
as ada omh promote $promoted >/dev/null
as ada git commit -qm "promote the agent's finding and decision"
as ada git push -q origin main 2>/dev/null
as bob git pull -q --no-rebase origin main 2>/dev/null
as bob omh index >/dev/null
check "bob's cache is fresh at HEAD after the pull" sh -c "cd '$work/bob' && HOME='$work/home-bob' XDG_DATA_HOME='$work/home-bob/data' omh status --json | grep -q '\"fresh\": true'"

# A note deleted and another moved in bob's working tree, not committed:
# no reply names either file as a team note.
deleted=topic/sandbox
moved=finding/tokens-expire-after-an-hour
as bob rm ".omh/notes/$deleted.md"
as bob git mv ".omh/notes/$moved.md" .omh/notes/finding/tokens-last-an-hour.md
as bob sh -c '
	omh find sandbox tokens credentials expire --roots 20
	omh find --cards sandbox tokens credentials expire --roots 20
	omh --json find sandbox tokens credentials expire --roots 20
	omh proof find how long does a service token last
	omh links topic/credentials
	omh --json links topic/credentials' >"$work/replies.txt" 2>&1
for gone in "$deleted" "$moved"; do
	if grep -q -- "$gone" "$work/replies.txt"; then
		fail "a reply names $gone, deleted or moved in the working tree"
		grep -- "$gone" "$work/replies.txt" | head -3
	else
		ok "no reply names $gone, deleted or moved in the working tree"
	fi
	check "omh show $gone says it is deleted" sh -c "cd '$work/bob' && HOME='$work/home-bob' XDG_DATA_HOME='$work/home-bob/data' omh show $gone 2>&1 | grep -q 'deleted in the working tree'"
done
check "the moved note answers under its new key, local" grep -q 'finding/tokens-last-an-hour .*local' "$work/replies.txt"
check "omh find --no-worktree still answers from the commit" sh -c "cd '$work/bob' && HOME='$work/home-bob' XDG_DATA_HOME='$work/home-bob/data' omh find --no-worktree sandbox | grep -q '^$deleted .*team'"
as bob git reset -q --hard

# A merge conflict: both edit the credentials note; bob pulls ada's edit.
printf '# Credentials\n\nWhere the service tokens live: the vault at secrets/prod, rotated hourly.\n' >"$work/ada/.omh/notes/topic/credentials.md"
as ada git commit -qam "credentials: the vault path"
as ada git push -q origin main 2>/dev/null
printf '# Credentials\n\nWhere the service tokens live: a mounted file, rotated daily.\n' >"$work/bob/.omh/notes/topic/credentials.md"
as bob git commit -qam "credentials: the mounted file"
if as bob git pull -q --no-rebase origin main >/dev/null 2>&1; then
	fail "the pull did not conflict"
fi
check "lint finds the conflict" sh -c "cd '$work/bob' && HOME='$work/home-bob' XDG_DATA_HOME='$work/home-bob/data' omh lint --rule conflict-markers | grep -q 'topic/credentials.md:3: error conflict-markers'"
check "lint --staged finds the conflict" sh -c "cd '$work/bob' && HOME='$work/home-bob' XDG_DATA_HOME='$work/home-bob/data' omh lint --staged --rule conflict-markers | grep -q 'error conflict-markers'"
for side in "secrets/prod" "mounted file"; do
	check "find reads the conflicted note's side \"$side\"" sh -c "cd '$work/bob' && HOME='$work/home-bob' XDG_DATA_HOME='$work/home-bob/data' omh find --cards $side | grep -q '^topic/credentials '"
done
printf '# Credentials\n\nWhere the service tokens live: the vault at secrets/prod (a mounted file before), rotated hourly.\n' >"$work/bob/.omh/notes/topic/credentials.md"
as bob git add .omh/notes/topic/credentials.md
as bob git commit -qm "merge ada's credentials" --no-edit
check "lint --staged is clean once the conflict is resolved" sh -c "cd '$work/bob' && HOME='$work/home-bob' XDG_DATA_HOME='$work/home-bob/data' omh lint --staged --rule conflict-markers"

# A rename in ada's clone, pulled into bob's, where a note bob committed
# (not pushed yet, with an edit not staged) and a private one still link
# to the old key.
printf '# Rotation\n\nTokens rotate; see [[topic/credentials]].\n' >"$work/bob/.omh/notes/topic/rotation.md"
as bob git add .omh/notes/topic/rotation.md
as bob git commit -qm rotation
printf '\nAn edit bob has not staged.\n' >>"$work/bob/.omh/notes/topic/rotation.md"
as ada git pull -q --no-rebase origin main 2>/dev/null || true
as ada omh mv topic/credentials topic/secrets >/dev/null
as ada git commit -qm "credentials are secrets now"
as ada git push -q origin main 2>/dev/null
as bob git pull -q --no-rebase --no-edit origin main 2>/dev/null
check "lint names the moved key's new key" sh -c "cd '$work/bob' && HOME='$work/home-bob' XDG_DATA_HOME='$work/home-bob/data' omh lint --rule dangling-link | grep -q 'topic/credentials was renamed to topic/secrets'"
check "omh mv --fix-links rewrites the links left behind" as bob omh mv --fix-links topic/credentials
check "lint is clean after the fix" as bob omh lint
check "the rewrite is staged without bob's unstaged edit" sh -c "cd '$work/bob' && git show :.omh/notes/topic/rotation.md | grep -q 'topic/secrets' && ! git show :.omh/notes/topic/rotation.md | grep -q 'not staged'"
check "lint --staged is clean: a commit would hold no broken link" as bob omh lint --staged

echo
if [ "$failed" -gt 0 ]; then
	echo "team trial: $failed checks failed (work folder $work)"
	exit 1
fi
echo "team trial: every check passed (work folder $work)"
