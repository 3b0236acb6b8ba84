#!/bin/sh
# Builds omh, lays the demo notes out as a real store in a throwaway git
# repository, and asks it a question: the provenance tree people read, then
# the first card, what an agent reads (omh find --cards) instead of the note:
#   team/      committed notes (the team layer)
#   worktree/  uncommitted edits and new files (local, in the working tree)
#   private/   this machine's private notes (local, outside the repository)
# Usage: sh testdata/demo/run.sh [omh find arguments...]
# With arguments, only omh find with those arguments runs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/omh-demo.XXXXXX")
(cd "$here/../.." && go build -o "$work/omh" ./cmd/omh)

repo="$work/repo"
mkdir -p "$repo/.omh"
cp -R "$here/team" "$repo/.omh/notes"
cd "$repo"
git init -q -b main
GIT_COMMITTER_DATE=2026-01-10T09:00:00Z git -c user.name=demo -c user.email=demo@example.invalid \
	-c commit.gpgsign=false commit -q --allow-empty -m "start the notes store" --date=2026-01-10T09:00:00Z
git add -A
GIT_COMMITTER_DATE=2026-03-21T09:00:00Z git -c user.name=demo -c user.email=demo@example.invalid \
	-c commit.gpgsign=false commit -q -m "demo notes" --date=2026-03-21T09:00:00Z
cp -R "$here/worktree/." .omh/notes/

OMH_LOCAL_DIR="$work/private"
export OMH_LOCAL_DIR
cp -R "$here/private" "$OMH_LOCAL_DIR"

echo "demo store: $repo (private notes in $OMH_LOCAL_DIR)" >&2
if [ $# -gt 0 ]; then
	exec "$work/omh" find "$@"
fi
question="why does mounting the credential file fail"
echo "\$ omh find $question" >&2
"$work/omh" find "$question"
echo >&2
echo "\$ omh find --cards --roots 1 $question" >&2
exec "$work/omh" find --cards --roots 1 "$question"
