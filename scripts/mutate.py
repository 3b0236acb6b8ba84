#!/usr/bin/env python3
"""Applies each mutation the provenance and ranking tests exist to catch, one
at a time, to a scratch copy of the repository, runs the tests, and prints
which tests went red. A mutation no test catches is a hole in the suite.

Usage: python3 scripts/mutate.py   (from the repository root)
"""
import os
import shutil
import subprocess
import sys
import tempfile

# (name, file, exact text, replacement)
MUTATIONS = [
    ("drop the layer", "retrieve/tree.go",
     'fmt.Fprintf(&b, "%s%s%s\\n", h.Note.Layer, provenanceSep, h.Note.Date)',
     'fmt.Fprintf(&b, "%s%s\\n", provenanceSep, h.Note.Date)'),
    ("print today's date", "retrieve/tree.go",
     'fmt.Fprintf(&b, "%s%s%s\\n", h.Note.Layer, provenanceSep, h.Note.Date)',
     'fmt.Fprintf(&b, "%s%s%s\\n", h.Note.Layer, provenanceSep, time.Now().Format("2006-01-02"))\n\t\t_ = time.Now'),
    ("dedupe by key", "retrieve/rank.go",
     "\tfor _, r := range roots {\n\t\tnote, err := c.Note(r.doc)\n\t\tif err != nil {\n\t\t\treturn res, err\n\t\t}\n",
     "\tseenKeys := map[string]bool{}\n\tfor _, r := range roots {\n\t\tnote, err := c.Note(r.doc)\n\t\tif err != nil {\n\t\t\treturn res, err\n\t\t}\n\t\tif seenKeys[note.Key] {\n\t\t\tcontinue\n\t\t}\n\t\tseenKeys[note.Key] = true\n"),
    ("inherit the parent's layer", "retrieve/rank.go",
     "res.Hits = append(res.Hits, Hit{Doc: t, Note: note, Depth: 1, Parent: parent})",
     "note.Layer = res.Hits[parent].Note.Layer\n\t\t\tres.Hits = append(res.Hits, Hit{Doc: t, Note: note, Depth: 1, Parent: parent})"),
    ("substring matching", "token/tokens.go",
     "\t\tcase !inWord && start >= 0:\n\t\t\tfn(start, i, Term(text[start:i]))",
     "\t\tcase !inWord && start >= 0:\n\t\t\tfor k := start; k < i; k++ {\n\t\t\t\tfn(k, k+1, strings.ToLower(text[k:k+1]))\n\t\t\t}\n\t\t\tfn(start, i, Term(text[start:i]))"),
    ("pooled phrasings", "retrieve/rank.go",
     "best := bestScores(c, scorer, q.Phrasings, lists)",
     "best := bestScores(c, scorer, []string{strings.Join(q.Phrasings, \" \")}, lists)"),
    ("children under the wrong root", "retrieve/tree.go",
     "\tlabels := make([]string, len(r.Hits))",
     "\tvar roots, children []Hit\n\tfor _, h := range r.Hits {\n\t\tif h.Depth == 0 {\n\t\t\troots = append(roots, h)\n\t\t} else {\n\t\t\tchildren = append(children, h)\n\t\t}\n\t}\n\tr.Hits = append(roots, children...)\n\tlabels := make([]string, len(r.Hits))"),
    ("a retracted record still overturns", "proof/lifecycle.go",
     "\t\tif retracted(r) {\n\t\t\tcontinue\n\t\t}\n\t\tfor _, l := range r.Links {",
     "\t\tfor _, l := range r.Links {"),
    ("a blob through a citation that no longer stands", "find/blob.go",
     "err != nil || s.State != proof.Current {",
     "err != nil || s.State != s.State {"),
    ("private notes ignore the as-of day", "index/refresher.go",
     "if b.meta.Recorded == \"\" || b.meta.Recorded > rf.target.day {",
     "if b.meta.Recorded == \"\" {"),
    ("every card a full card", "find/fit.go",
     "\tfullCards    = 3\n\tpassageCards = 5",
     "\tfullCards    = 30\n\tpassageCards = 50"),
]

IMPORTS = {"time": '"time"', "strings": '"strings"'}


def add_import(src, pkg):
    if IMPORTS[pkg] in src.split(")")[0]:
        return src
    return src.replace("import (\n", "import (\n\t" + IMPORTS[pkg] + "\n", 1)


def main():
    root = os.getcwd()
    if not os.path.exists(os.path.join(root, "go.mod")):
        sys.exit("run from the repository root")
    failures = 0
    for name, path, old, new in MUTATIONS:
        with tempfile.TemporaryDirectory() as scratch:
            copy = os.path.join(scratch, "omh")
            shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".git"))
            target = os.path.join(copy, path)
            src = open(target).read()
            if old not in src:
                print(f"{name}: the code it mutates has changed; update scripts/mutate.py")
                failures += 1
                continue
            src = src.replace(old, new, 1)
            for pkg in IMPORTS:
                if pkg + "." in new:
                    src = add_import(src, pkg)
            open(target, "w").write(src)
            run = subprocess.run(["go", "test", "-short", "./token/", "./retrieve/", "./proof/", "./find/...", "./index/", "./cmd/omh/"],
                                 cwd=copy, capture_output=True, text=True)
            red = sorted({line.split()[2] for line in run.stdout.splitlines()
                          if line.startswith("--- FAIL")})
            if "build failed" in run.stdout or "[setup failed]" in run.stdout:
                print(f"{name}: the mutant does not compile\n{run.stdout}{run.stderr}")
                failures += 1
            elif not red:
                print(f"{name}: NO TEST WENT RED")
                failures += 1
            else:
                print(f"{name}: {', '.join(red)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
