#!/usr/bin/env python3
"""Check omh's reading of real vaults against scripts/reflinks.py.

    python3 scripts/vaultcheck.py OMH VAULT...

Each VAULT is a clone omh has set up (`omh init`, or any command, writes its
.omh/config.yaml). For each it prints:
  - the link forms the vault uses, counted by the reference reading, with how
    many the reference resolves and how many of those omh lint still reports
    as dangling or ambiguous (a form omh does not handle shows up there);
  - `omh links` on 20 random notes that link (seeded, so runs agree) against
    the reference's links of the same notes;
  - every dangling link omh lint reports, checked against the reference: a
    report is false when the reference resolves the link on that line.
It exits 1 when a sampled note's links differ or false reports pass 1 %.
"""
import collections
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reflinks  # noqa: E402

SAMPLE = 20


def omh_json(omh, vault, *args):
    out = subprocess.run([omh, "-C", vault, "--quiet", "--json", *args], capture_output=True)
    if out.returncode not in (0, 1):
        raise SystemExit(f"omh {' '.join(args)} in {vault}: exit {out.returncode}: {out.stderr.decode()}")
    return json.loads(out.stdout)


def matching(messages, written, dialect):
    """Whether one of omh lint's messages about a line names this link:
    omh writes [[name]], ![[name]], #tag or the link to "path"."""
    name = written[len("tags."):] if dialect == "dendron" and written.startswith("tags.") else written
    if written.lower().endswith(".md"):
        written = written[:-3]
    for m in messages:
        if f"[[{written}]]" in m or f'"{written}"' in m or f"#{name} " in m or f"#{name}," in m:
            return True
    return False


def check(omh, vault):
    name = os.path.basename(os.path.normpath(vault))
    omh_json(omh, vault, "status")  # writes the config when there is none
    cfg = reflinks.read_config(vault)
    keys = reflinks.notes_of(vault, cfg["notes"])
    index = reflinks.Vault(keys, cfg)
    ref = {}
    for key in keys:
        links = []
        for line, form, written, kind in reflinks.links_in(reflinks.read_note(vault, cfg, key), cfg["dialect"]):
            target, status = index.status(key, written, kind)
            links.append((line, form, written, target, status))
        ref[key] = links
    print(f"== {name}: {len(keys)} notes, notes root {cfg['notes'] or '.'}, dialect {cfg['dialect']}"
          + (f", site {cfg['site']}" if cfg["site"] else "")
          + (f", vaults {cfg['vaults']}" if cfg["vaults"] else ""))

    lint = omh_json(omh, vault, "lint", "--rule", "dangling-link", "--rule", "ambiguous-link")
    reported = collections.defaultdict(list)  # (key, line) -> what omh lint says of links there
    for f in lint["findings"]:
        reported[(f["key"], f["line"])].append(f["message"])

    # Link forms.
    forms = collections.Counter()
    resolved = collections.Counter()
    still = collections.Counter()
    statuses = collections.defaultdict(collections.Counter)
    for key, links in ref.items():
        for line, form, written, target, status in links:
            forms[form] += 1
            statuses[form][status] += 1
            if target and matching(reported.get((key, line), []), written, cfg["dialect"]):
                still[form] += 1
    print(f"  {'form':42} {'links':>7} {'resolve':>8} {'dangling':>9} {'no note':>8} {'omh errs':>9}")
    for form, n in sorted(forms.items(), key=lambda x: -x[1]):
        st = statuses[form]
        print(f"  {form:42} {n:7} {st['resolved']:8} {st['dangling'] + st['ambiguous']:9} {st['not-a-note']:8} {still[form]:9}")

    # omh links on a sample of notes that link.
    linking = sorted(k for k, links in ref.items() if links)
    rng = random.Random(f"omh links {name}")
    sample = rng.sample(linking, min(SAMPLE, len(linking)))
    same = 0
    for key in sample:
        want = {t for _, _, _, t, _ in ref[key] if t and t != key}
        got = set()
        for n in omh_json(omh, vault, "links", "--out", key)["notes"]:
            got |= {l["key"] for l in n["links"] if l["key"] != key}
        if got == want:
            same += 1
        else:
            print(f"  links differ for {key}: omh only {sorted(got - want)}, reference only {sorted(want - got)}")
    print(f"  omh links equals the reference on {same} of {len(sample)} sampled notes")

    # Dangling reports against the reference.
    dangling = [f for f in lint["findings"] if f["rule"] == "dangling-link"]
    false = []
    for f in dangling:
        on_line = [l for l in ref.get(f["key"], []) if l[0] == f["line"] and matching([f["message"]], l[2], cfg["dialect"])]
        if not on_line or all(l[4] == "resolved" for l in on_line):
            false.append(f)
    missed = [(k, l) for k, links in ref.items() for l in links
              if l[4] in ("dangling", "ambiguous") and not matching(reported.get((k, l[0]), []), l[2], cfg["dialect"])]
    share = len(false) / len(dangling) if dangling else 0
    print(f"  dangling reported {len(dangling)}, of which the reference resolves or does not see {len(false)} ({share:.1%});"
          f" links the reference finds dangling or ambiguous that omh does not report: {len(missed)}")
    for f in false[:10]:
        print(f"    false report? {f['path']}:{f['line']}: {f['message']}")
    for k, l in missed[:20]:
        print(f"    not reported: {k}:{l[0]}: {l[1]} {l[2]!r} ({l[4]})")
    return same == len(sample) and share <= 0.01


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    ok = all([check(sys.argv[1], v) for v in sys.argv[2:]])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
