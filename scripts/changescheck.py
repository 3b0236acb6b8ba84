#!/usr/bin/env python3
"""Check omh changes against git log on a real vault's history.

    python3 scripts/changescheck.py [--omh OMH] [--bundle BUNDLE] [DATE...]

BUNDLE is a git bundle of a vault (default: dendron-site.bundle in the data
folder, $OMH_DATA or ../shared/data from the checkout); it is cloned into a
temporary folder. OMH is an omh binary (default: built from this checkout).
For each DATE (default: a month, half a year, a year and a half, and the
whole history before the last commit) it compares

  omh changes --since DATE --limit 0 --json

with what git log --name-status -M lists for the notes under the notes root
(the *.md files, keys without the root and the extension) from the commit
the date counts from: the last commit of HEAD's first-parent history made
before the date, by its committer's own clock. The lists must be equal, in
order, commit by commit, renames as renames. It also counts the changes of
commits made before the date and merged after it, which git log --since
DATE would leave out and omh lists (they were not there to see on that
day), and times omh changes --since DATE (default page, median of 3).
Exits 1 when a list differs.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHANGE = {"A": "added", "M": "changed", "D": "removed", "R": "renamed"}


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout.decode()


def omh_json(omh, repo, *args):
    out = subprocess.run([omh, "-C", repo, "--quiet", "--json", *args], capture_output=True)
    if out.returncode != 0:
        raise SystemExit(f"omh {' '.join(args)}: exit {out.returncode}: {out.stderr.decode()}")
    return json.loads(out.stdout)


def since_commit(repo, day):
    """The last first-parent commit made before day, by its committer's own
    clock; None when there is none (everything counts)."""
    for line in git(repo, "log", "--first-parent", "--format=%H %cd", "--date=format:%Y-%m-%d", "HEAD").splitlines():
        commit, committed = line.split()
        if committed < day:
            return commit
    return None


def logged(repo, since, notes_root):
    """git log --name-status -M from since to HEAD under the notes root, as
    (commit, change, key, old key) in git's order, and each commit's
    committer day, by its own clock."""
    rng = f"{since}..HEAD" if since else "HEAD"
    out = git(repo, "log", "--name-status", "-M", "-z", "--format=%x01%H %cd", "--date=format:%Y-%m-%d", rng, "--",
              notes_root or ".")
    prefix = notes_root + "/" if notes_root else ""

    def key(path):
        if not path.startswith(prefix) or not path.endswith(".md") or (not prefix and path.startswith(".omh/")):
            return None
        return path[len(prefix):-3]

    entries, when = [], {}
    for chunk in out.split("\x01")[1:]:
        header, _, rest = chunk.partition("\n")
        commit, when[commit] = header.strip("\x00").split()
        fields = rest.strip("\x00\n").split("\x00") if rest.strip("\x00\n") else []
        i = 0
        while i < len(fields):
            status = fields[i]
            if status[0] in "RC":
                old, new = fields[i + 1], fields[i + 2]
                i += 3
                k, o = key(new), key(old)
                if status[0] == "R" and k and o:
                    entries.append((commit, "renamed", k, o))
                elif k:
                    entries.append((commit, "added", k, ""))
                elif o and status[0] == "R":
                    entries.append((commit, "removed", o, ""))
                continue
            path = fields[i + 1]
            i += 2
            k = key(path)
            if k and status[0] in CHANGE:
                entries.append((commit, CHANGE[status[0]], k, ""))
    return entries, when


def listed(reply):
    return [(c["commit"], c["change"], c["key"], c.get("old_key", "")) for c in reply["changes"] if not c.get("uncommitted")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--omh")
    ap.add_argument("--bundle")
    ap.add_argument("dates", nargs="*", default=["2022-11-07", "2022-06-01", "2021-06-01", "2020-01-01"])
    args = ap.parse_args()
    data = os.environ.get("OMH_DATA") or os.path.join(ROOT, "..", "shared", "data")
    bundle = args.bundle or os.path.join(data, "vaults", "dendron-site.bundle")
    with tempfile.TemporaryDirectory() as tmp:
        omh = args.omh
        if not omh:
            omh = os.path.join(tmp, "omh")
            subprocess.run(["go", "build", "-o", omh, "./cmd/omh"], cwd=ROOT, check=True)
        repo = os.path.join(tmp, "vault")
        subprocess.run(["git", "clone", "-q", bundle, repo], check=True)
        git(repo, "config", "omh.local", os.path.join(tmp, "private"))
        notes_root = omh_json(omh, repo, "status")["notes_root"]
        commits = len(git(repo, "rev-list", "HEAD").split())
        print(f"{os.path.basename(bundle)}: {commits} commits, notes root {notes_root or '.'}")
        failed = False
        for day in args.dates:
            since = since_commit(repo, day)
            want, when = logged(repo, since, notes_root)
            reply = omh_json(omh, repo, "changes", "--since", day, "--limit", "0")
            got = listed(reply)
            late = sum(1 for e in want if when[e[0]] < day)
            kinds = {k: sum(1 for e in got if e[1] == k) for k in ("added", "changed", "renamed", "removed")}
            walls = []
            for _ in range(3):
                start = time.perf_counter()
                subprocess.run([omh, "-C", repo, "--quiet", "changes", "--since", day], check=True, capture_output=True)
                walls.append(time.perf_counter() - start)
            same = got == want and reply["since_commit"] == since
            failed |= not same
            print(f"  --since {day}: from {since[:12] if since else 'the first commit'}, {len(want)} git log entries in "
                  f"{len(when)} commits, omh {len(got)} ({', '.join(f'{n} {k}' for k, n in kinds.items())}): "
                  f"{'equal' if same else 'DIFFERENT'}; {late} from commits made before the day and merged "
                  f"after it; omh changes {statistics.median(walls) * 1000:.0f} ms")
            if not same:
                for i, (a, b) in enumerate(zip(got + [None] * len(want), want + [None] * len(got))):
                    if a != b:
                        print(f"    first difference at {i}: omh {a}, git {b}")
                        break
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
