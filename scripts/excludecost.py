#!/usr/bin/env python3
"""The cost of exclude globs: the first omh command after a change of
.omh/config.yaml, with no globs and with N, in alternating rounds.

    python3 scripts/excludecost.py STORE [N] [ROUNDS] [OMH...]

STORE is a clone of your own of a store (vba-docs, say); its
.omh/config.yaml is rewritten each round and removed at the end. N
(default 1000) globs are made from the store's own folders and file names,
as people write them: a file name at any depth (`TOC.md`, `draft-3.md`), a
folder (`articles/archive-7/**`) and a pattern below one
(`api/*/x-12-*.md`); a few of them match notes. Each round writes the
config with none and with N (a comment line differs, so each write is a
change) and times `omh find` after it. Prints the median wall seconds of
each and their ratio, for each OMH binary given (default: omh on PATH).
"""
import os
import statistics
import subprocess
import sys
import time


def folders(store):
    out = []
    for root, dirs, _ in os.walk(store):
        dirs[:] = sorted(d for d in dirs if d != ".git" and d != ".omh")
        rel = os.path.relpath(root, store)
        if rel != ".":
            out.append(rel.replace(os.sep, "/"))
    return out


def globs(store, n):
    dirs = folders(store) or ["notes"]
    out = ["TOC.md", "README.md"]  # names that match notes at many depths
    i = 0
    while len(out) < n:
        d = dirs[i % len(dirs)]
        kind = i % 3
        if kind == 0:
            out.append(f"draft-{i}.md")
        elif kind == 1:
            out.append(f"{d}/archive-{i}/**")
        else:
            out.append(f"{d}/*/x-{i}-*.md")
        i += 1
    return out[:n]


def config(base, gl, round_):
    lines = [base.rstrip("\n"), f"# round {round_}"]
    if gl:
        lines.append("exclude:")
        lines += [f"  - '{g}'" for g in gl]
    return "\n".join(lines) + "\n"


def timed(omh, store):
    start = time.monotonic()
    p = subprocess.run([omh, "-C", store, "find", "workbook open event"], capture_output=True)
    took = time.monotonic() - start
    if p.returncode != 0:
        sys.exit(f"{omh} find exit {p.returncode}: {p.stderr.decode()}")
    return took


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    store = os.path.abspath(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    binaries = sys.argv[4:] or ["omh"]
    cfg = os.path.join(store, ".omh", "config.yaml")
    os.makedirs(os.path.dirname(cfg), exist_ok=True)
    # The settings detected for a store without a config, so that only the
    # globs differ from what omh reads without one.
    subprocess.run([binaries[0], "-C", store, "status"], capture_output=True)
    detected = os.path.join(store, ".git", "omh", "detected-config.yaml")
    base = "".join(l for l in open(detected) if not l.startswith("#")) if os.path.exists(detected) else ""
    gl = globs(store, n)
    times = {(b, k): [] for b in binaries for k in ("none", "globs")}
    try:
        for r in range(rounds):
            for b in binaries:
                for k, g in (("none", []), ("globs", gl)):
                    with open(cfg, "w") as f:
                        f.write(config(base, g, f"{r} {b} {k}"))
                    times[(b, k)].append(timed(b, store))
    finally:
        os.remove(cfg)
    for b in binaries:
        none, with_ = statistics.median(times[(b, "none")]), statistics.median(times[(b, "globs")])
        print(f"{b}: {n} globs {with_:.2f} s, none {none:.2f} s (medians of {rounds}), ratio {with_ / none:.2f}")
        print(f"  none:  {' '.join(f'{t:.2f}' for t in times[(b, 'none')])}")
        print(f"  globs: {' '.join(f'{t:.2f}' for t in times[(b, 'globs')])}")


if __name__ == "__main__":
    main()
