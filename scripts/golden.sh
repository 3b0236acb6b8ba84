#!/bin/sh
# Records what omh answers, byte for byte, so a change meant to keep answers
# the same can prove it: run it before and after, then diff the two folders.
#
#   sh scripts/golden.sh OUT            record with the omh built from this checkout
#   diff -r OUT.before OUT.after        any line is a changed answer
#
# What it records, stdout and stderr and exit status of each call:
#   - the demo store (testdata/demo): find as a tree, cards, JSON and JSON
#     cards for a few questions, show, links, lint, status, proof find;
#   - each real vault cloned from ../shared/data/vaults (OMH_DATA overrides)
#     whose gold questions exist: every tune question (negatives included)
#     as a tree, cards and JSON cards.
# The vaults are cloned once into $OMH_GOLDEN_WORK (default
# ${TMPDIR:-/tmp}/omh-golden) and their caches rebuilt by the first call.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/golden.sh OUT}
data=${OMH_DATA:-$here/../shared/data}
work=${OMH_GOLDEN_WORK:-${TMPDIR:-/tmp}/omh-golden}
mkdir -p "$out" "$work"
out=$(cd "$out" && pwd)
(cd "$here" && go build -o "$work/omh" ./cmd/omh)
omh="$work/omh"

# call NAME ARGS...: one omh call, its streams and status in $out/NAME.
call() {
	name=$1
	shift
	set +e
	"$omh" "$@" >"$out/$name.out" 2>"$out/$name.err"
	echo $? >"$out/$name.status"
	set -e
}

# The demo store, laid out as testdata/demo/run.sh does, at a fixed path so
# paths in replies agree between runs.
demo="$work/demo"
rm -rf "$demo"
mkdir -p "$demo/repo/.omh"
cp -R "$here/testdata/demo/team" "$demo/repo/.omh/notes"
(
	cd "$demo/repo"
	git init -q -b main
	GIT_COMMITTER_DATE=2026-01-10T09:00:00Z git -c user.name=demo -c user.email=demo@example.invalid \
		-c commit.gpgsign=false commit -q --allow-empty -m "start" --date=2026-01-10T09:00:00Z
	git add -A
	GIT_COMMITTER_DATE=2026-03-21T09:00:00Z git -c user.name=demo -c user.email=demo@example.invalid \
		-c commit.gpgsign=false commit -q -m "demo notes" --date=2026-03-21T09:00:00Z
	cp -R "$here/testdata/demo/worktree/." .omh/notes/
)
cp -R "$here/testdata/demo/private" "$demo/private"
OMH_LOCAL_DIR="$demo/private"
export OMH_LOCAL_DIR
mkdir -p "$out/demo"
i=0
for q in "why does mounting the credential file fail" "token refresh" "sandbox user id" "ci cache lockfile"; do
	i=$((i + 1))
	call demo/find$i -C "$demo/repo" find "$q"
	call demo/cards$i -C "$demo/repo" find --cards "$q"
	call demo/json$i -C "$demo/repo" find --json "$q"
	call demo/jsoncards$i -C "$demo/repo" --json find --cards "$q"
	call demo/proof$i -C "$demo/repo" proof find --retracted include "$q"
done
call demo/show -C "$demo/repo" show topic/credentials
call demo/showjson -C "$demo/repo" --json show topic/credentials
call demo/links -C "$demo/repo" links topic/credentials
call demo/linksjson -C "$demo/repo" --json links topic/credentials
call demo/lint -C "$demo/repo" lint
call demo/lintjson -C "$demo/repo" --json lint
call demo/proofshow -C "$demo/repo" proof show finding/sandbox-user-is-uid-1000
unset OMH_LOCAL_DIR

# The real vaults and their tune questions.
for pair in obsidian-help-en:obsidian dendron-site:dendron vba-docs:vba; do
	vault=${pair%%:*}
	set_=${pair#*:}
	[ -f "$data/vaults/$vault.bundle" ] || continue
	[ -d "$work/$vault/.git" ] || git clone -q "$data/vaults/$vault.bundle" "$work/$vault"
	mkdir -p "$out/$vault"
	OMH_LOCAL_DIR="$work/$vault.private"
	export OMH_LOCAL_DIR
	for gold in "$data/gold/$set_-tune.jsonl" "$data/gold/$set_-tune-negatives.jsonl"; do
		[ -f "$gold" ] || continue
		python3 - "$gold" <<'EOF' >"$work/questions"
import json, sys
for line in open(sys.argv[1]):
    if line.strip():
        g = json.loads(line)
        print(g["id"] + "\t" + g["question"].replace("\n", " "))
EOF
		while IFS="	" read -r id q; do
			call "$vault/$id.tree" -C "$work/$vault" find "$q"
			call "$vault/$id.cards" -C "$work/$vault" find --cards "$q"
			call "$vault/$id.json" -C "$work/$vault" --json find --cards "$q"
		done <"$work/questions"
	done
	unset OMH_LOCAL_DIR
done
echo "golden: answers recorded in $out" >&2
