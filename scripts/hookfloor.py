#!/usr/bin/env python3
"""What a post-commit hook costs git, against the floor any hook costs.

    python3 scripts/hookfloor.py OMH [ROUNDS]

Makes a 20-note repository in a temporary folder and times a one-note
`git commit -q` in alternating rounds: without a hook, with a hook that only
exits (`#!/bin/sh` + `exit 0`: what git pays to run any hook), and with
omh's post-commit shim (.githooks/post-commit, the one `omh init` installs),
OMH first on PATH. Each commit is followed by an untimed pause so the
background refresh the shim starts never overlaps the next timed commit.
Prints the medians and their ratios.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    omh = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    work = tempfile.mkdtemp(prefix="omh-hookfloor-")
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir)
    shutil.copy(omh, os.path.join(bin_dir, "omh"))
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"], GIT_AUTHOR_NAME="t",
               GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    repo = os.path.join(work, "r")

    def git(*args):
        subprocess.run(["git", "-C", repo, *args], env=env, check=True)

    subprocess.run(["git", "init", "-q", repo], env=env, check=True)
    for i in range(20):
        with open(os.path.join(repo, f"n{i}.md"), "w") as f:
            f.write(f"# Note {i}\n\nA line.\n")
    git("add", ".")
    git("commit", "-qm", "notes")
    subprocess.run(["omh", "-C", repo, "index"], env=env, check=True, capture_output=True)
    empty = os.path.join(work, "empty")
    with open(empty, "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(empty, 0o755)
    hooks = {"none": None, "empty": empty, "omh": os.path.join(HERE, ".githooks", "post-commit")}
    hook = os.path.join(repo, ".git", "hooks", "post-commit")
    times = {k: [] for k in hooks}
    for _ in range(rounds):
        for kind, src in hooks.items():
            if os.path.exists(hook):
                os.remove(hook)
            if src:
                shutil.copy(src, hook)
                os.chmod(hook, 0o755)
            with open(os.path.join(repo, "n0.md"), "a") as f:
                f.write("x\n")
            git("add", "n0.md")
            start = time.perf_counter()
            git("commit", "-qm", "one note")
            times[kind].append((time.perf_counter() - start) * 1000)
            time.sleep(0.3)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{rounds} alternating rounds, medians: no hook {med['none']:.1f} ms, "
          f"empty hook {med['empty']:.1f} ms, omh's shim {med['omh']:.1f} ms")
    print(f"empty/none {med['empty'] / med['none']:.2f}  omh/none {med['omh'] / med['none']:.2f}  "
          f"omh/empty {med['omh'] / med['empty']:.2f}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
