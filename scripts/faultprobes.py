#!/usr/bin/env python3
"""Try, as a user would, the faults that once lost notes, wrote in the wrong
place or said something untrue, and print one line per probe: what happened.

    python3 scripts/faultprobes.py WORK [PROBE...]

WORK is an empty folder of your own; it gets two builds of omh (as
installed, and with the crash switches of the crashpoints build tag) and a
repository per probe. With PROBE names, only those run. Each line ends in
"ok" or "FAILED"; the script exits 1 when any failed. Probes that need
mount(2) (a read-only journal, a worktree on another file system) say
"skipped" when it is not allowed. Timings are wall seconds of one run.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = ""
OMH = ""
OMH_CRASH = ""
ENV = {}
FAILED = []


def say(probe, ok, what):
    print(f"{probe}: {what} — {'ok' if ok else 'FAILED'}", flush=True)
    if not ok:
        FAILED.append(probe)


def run(args, cwd=None, env=None, stdin=None, timeout=300):
    e = dict(ENV)
    e.update(env or {})
    start = time.monotonic()
    p = subprocess.run(args, cwd=cwd, env=e, input=stdin, capture_output=True, timeout=timeout)
    p.seconds = time.monotonic() - start
    return p


def git(repo, *args):
    p = run(["git", "-C", repo, *args])
    if p.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {p.stderr.decode()}")
    return p.stdout.decode()


def omh(repo, *args, binary=None, env=None, stdin=None, timeout=300):
    return run([binary or OMH, "-C", repo, *args], env=env, stdin=stdin, timeout=timeout)


def first_line(b):
    s = b.decode(errors="replace").strip()
    return s.splitlines()[0] if s else ""


def repo(name, notes=None, commit=True):
    """A fresh repository holding notes {path: text}, committed."""
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    git(d, "init", "-q", "-b", "main")
    for path, text in (notes or {}).items():
        write(os.path.join(d, path), text)
    if commit and notes:
        git(d, "add", "-A")
        git(d, "commit", "-qm", "notes")
    return d


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(text, bytes) else "w"
    with open(path, mode) as f:
        f.write(text)


def tree_state(d):
    """Every file under d but .git, with its bytes, and git's index."""
    out = []
    for root, dirs, files in os.walk(d):
        dirs[:] = sorted(x for x in dirs if x != ".git")
        for f in sorted(files):
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out.append((os.path.relpath(p, d), fh.read()))
    return out, git(d, "ls-files", "--stage")


def many(n, link_every=3):
    notes = {}
    for i in range(n):
        body = f"# Note {i}\n\nwords about topic{i % 50} and sync engines.\n"
        if i % link_every == 0:
            body += "See [[hub]].\n"
        notes[f"notes/n{i:05d}.md"] = body
    notes["notes/hub.md"] = "# Hub\n\nThe hub of sync.\n"
    return notes


def team_notes(d):
    p = omh(d, "--json", "status")
    return json.loads(p.stdout)["notes"]["team"] if p.returncode == 0 else -1


# --- the probes, in the order of the issue that found them -----------------


def p1_first_commit():
    xdg = os.path.join(WORK, "p1-xdg")
    d = repo("p1")
    env = {"OMH_LOCAL_DIR": "", "XDG_DATA_HOME": xdg}
    e = dict(ENV)
    e.pop("OMH_LOCAL_DIR", None)
    made = omh(d, "new", "note", "Written before the first commit", env=env)
    write(os.path.join(d, "team.md"), "# Team\n\nA committed note.\n")
    git(d, "add", "-A")
    git(d, "commit", "-qm", "first")
    p = omh(d, "--json", "find", "written before the first commit", env=env)
    hits = json.loads(p.stdout).get("hits", []) if p.returncode == 0 else []
    local = [h["key"] for h in hits if h.get("layer") == "local"]
    say("1 private note before the first commit", made.returncode == 0 and local == ["note/written-before-the-first-commit"],
        f"new exit {made.returncode}; after the commit find lists local {local}")


def crash_mid_mv(name, step):
    notes = {"a.md": "# A\n\nThe note.\n"}
    for i in range(8):
        notes[f"l{i}.md"] = f"# L{i}\n\nSee [[a]].\n"
    d = repo(name, notes)
    omh(d, "index")
    before = tree_state(d)
    p = omh(d, "mv", "a", "b", binary=OMH_CRASH, env={"OMH_CRASH_BEFORE_JOURNAL_STEP": str(step)})
    return d, before, p.returncode


def after_mv(d):
    """Whether d holds the finished rename: b.md, no a.md, every link rewritten."""
    return (os.path.exists(os.path.join(d, "b.md")) and not os.path.exists(os.path.join(d, "a.md"))
            and all("[[b]]" in open(os.path.join(d, f"l{i}.md")).read() for i in range(8)))


def kill_points():
    """Journal steps to crash at: a dozen spread over the mv, and each of
    the last few, where the manifest is written and the change applied."""
    last = 1
    while crash_mid_mv("p2", last * 2)[2] == 99:
        last *= 2
    lo, hi = last, last * 2  # crashes at lo, finishes at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if crash_mid_mv("p2", mid)[2] == 99 else (lo, mid)
    return sorted(set(range(1, lo, max(1, lo // 12))) | set(range(max(1, lo - 8), lo + 1)))


def p2_copy_after_crash():
    for how in ("cp -a", "mv"):
        ends, bad = {"before": 0, "after": 0}, []
        for step in kill_points():
            d, before, code = crash_mid_mv("p2", step)
            if code != 99:
                continue
            half = tree_state(d)
            other = d + "-other"
            shutil.rmtree(other, ignore_errors=True)
            if how == "cp -a":
                subprocess.run(["cp", "-a", d, other], check=True)
            else:
                os.rename(d, other)
            p = omh(other, "status")
            end = "after" if after_mv(other) else "before" if tree_state(other) == before else "half"
            if end == "half" or p.returncode != 0 or (how == "cp -a" and tree_state(d) != half) or (how == "mv" and os.path.exists(d)):
                bad.append(f"step {step}: {end}, exit {p.returncode} {first_line(p.stderr)}")
            else:
                ends[end] += 1
        say(f"2 crash mid-mv at each journal step, then {how} of the repository", not bad,
            f"the {'copy' if how == 'cp -a' else 'moved folder'} ended as before {ends['before']}, as after {ends['after']}; "
            f"{'original untouched' if how == 'cp -a' else 'nothing at the old path'}; wrong: {bad or 'none'}")


def mount_ro(path):
    os.makedirs(path, exist_ok=True)
    if subprocess.run(["mount", "-t", "tmpfs", "tmpfs", path], capture_output=True).returncode != 0:
        return False
    return subprocess.run(["mount", "-o", "remount,ro", path], capture_output=True).returncode == 0


def p3_unwritable_journal():
    d = repo("p3", {"a.md": "# A\n", "b.md": "See [[a]].\n"})
    omh(d, "index")
    jdir = os.path.join(d, ".git", "omh-journal")
    shutil.rmtree(jdir, ignore_errors=True)
    if not mount_ro(jdir):
        print("3 unwritable journal folder: skipped (mount not allowed)")
        return
    try:
        before = tree_state(d)
        p = omh(d, "--json", "mv", "a", "c")
        code = json.loads(p.stdout or b"{}").get("error", {}).get("code", "") if p.stdout else first_line(p.stderr)
        rec = omh(d, "recover")
        say("3 unwritable journal folder", p.returncode != 0 and tree_state(d) == before,
            f"mv exit {p.returncode} ({code}), nothing changed: {tree_state(d) == before}; recover: {first_line(rec.stdout or rec.stderr)}")
    finally:
        subprocess.run(["umount", jdir])


def p4_commit_race(rounds=12):
    bad = 0
    for r in range(rounds):
        notes = {"a.md": "# A\n\nThe note.\n"}
        for i in range(30):
            notes[f"l{i}.md"] = f"# L{i}\n\nSee [[a]].\n"
        d = repo("p4", notes)
        omh(d, "index")
        write(os.path.join(d, "other.md"), "changed\n")
        git(d, "add", "other.md")

        def commit():
            time.sleep(0.001 * (r % 6) * 5)
            run(["git", "-C", d, "commit", "-qam", "race"])

        t = threading.Thread(target=commit)
        t.start()
        p = omh(d, "mv", "a", "b")
        t.join()
        while os.path.exists(os.path.join(d, ".git", "index.lock")):
            time.sleep(0.05)
        head = set(git(d, "ls-tree", "--name-only", "HEAD").split())
        tracked = set(git(d, "ls-files").split())
        on_disk = {f for f in os.listdir(d) if f.endswith(".md")}
        # A note is lost when neither a.md nor b.md is both on disk and tracked.
        lost = not ({"a.md", "b.md"} & on_disk & tracked)
        # A commit that recorded the rewritten links must hold the note.
        half_commit = "a.md" not in head and "b.md" not in head
        if lost or half_commit:
            bad += 1
            print(f"  round {r}: mv exit {p.returncode} {first_line(p.stderr)}; head has a/b: {'a.md' in head}/{'b.md' in head}")
    say(f"4 mv while git commit -a runs, {rounds} rounds", bad == 0, f"{bad} rounds left a note untracked or out of HEAD")


def p5_other_device():
    d = repo("p5", {"a.md": "# A\n", "b.md": "See [[a]].\n"})
    wt = os.path.join(WORK, "p5-wt")
    if os.path.ismount(wt):
        subprocess.run(["umount", wt])
    shutil.rmtree(wt, ignore_errors=True)
    os.makedirs(wt)
    if subprocess.run(["mount", "-t", "tmpfs", "tmpfs", wt], capture_output=True).returncode != 0:
        print("5 worktree on another file system: skipped (mount not allowed)")
        return
    try:
        tree = os.path.join(wt, "tree")
        git(d, "worktree", "add", "-q", tree)
        omh(tree, "index")
        left = []
        for step in range(1, 8):
            git(tree, "reset", "-q", "--hard")
            git(tree, "clean", "-qfd")
            omh(tree, "mv", "a", "c", binary=OMH_CRASH, env={"OMH_CRASH_BEFORE_JOURNAL_STEP": str(step)})
            omh(tree, "recover")
            untracked = run(["git", "-C", tree, "status", "--porcelain", "--untracked-files=all"]).stdout.decode()
            left += [l for l in untracked.splitlines() if ".tmp" in l]
        say("5 kill mid-mv in a worktree on a tmpfs, then omh recover", not left,
            f"temporary files left beside notes after 7 kill points: {left or 'none'}")
    finally:
        subprocess.run(["umount", wt])


def p6_private_inside():
    d = repo("p6", {"a.md": "# A\n"})
    results = []
    for value in [".omh/notes", os.path.join(d, ".git"), os.path.join(d, "notes-here"), "rel/private"]:
        p = omh(d, "--json", "new", "note", "Inside", env={"OMH_LOCAL_DIR": value})
        code = json.loads(p.stdout).get("error", {}).get("code") if p.stdout.strip() else ""
        results.append((value.replace(d, "REPO"), p.returncode, code))
    written = run(["git", "-C", d, "status", "--porcelain", "--untracked-files=all"]).stdout.decode().strip()
    in_git = [f for f in os.listdir(os.path.join(d, ".git")) if f.startswith("note")]
    ok = all(r[1] != 0 for r in results) and not written and not in_git
    say("6 private folder inside the repository", ok, f"{results}; files written in the tree: {written or 'none'}, in .git: {in_git or 'none'}")


def p7_corrupt_cache():
    d = repo("p7", many(200))
    omh(d, "index")
    cache = os.path.join(d, ".git", "omh")
    for f in os.listdir(cache):
        p = os.path.join(cache, f)
        if os.path.isfile(p):
            data = bytearray(open(p, "rb").read())
            for i in range(0, len(data), 97):
                data[i] ^= 0x5A
            open(p, "wb").write(bytes(data))
    p = omh(d, "--json", "find", "sync engines")
    hits = len(json.loads(p.stdout).get("hits", [])) if p.returncode == 0 else 0
    say("7 bytes flipped in every file of the cache", p.returncode == 0 and hits > 0,
        f"find exit {p.returncode}, {hits} hits; stderr: {first_line(p.stderr) or 'none'}")


def p9_repack():
    d = repo("p9", many(6000))
    git(d, "gc", "-q")
    for i in range(0, 6000, 7):
        write(os.path.join(d, f"notes/extra{i}.md"), f"# Extra {i}\n\nsync {i}\n")
    git(d, "add", "-A")
    git(d, "commit", "-qm", "loose objects")
    e = dict(ENV)
    proc = subprocess.Popen([OMH, "-C", d, "index", "--rebuild"], env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.3)
    subprocess.run(["git", "-C", d, "repack", "-adq"], env=e)
    subprocess.run(["git", "-C", d, "prune-packed"], env=e)
    out, err = proc.communicate()
    want = len(git(d, "ls-files").split())
    got = team_notes(d)
    partial = "partial clone" in err.decode()
    say("9 repack during a refresh", got == want and not partial,
        f"{got} of {want} notes indexed; 'partial clone' said: {partial}; skipped warnings: {err.decode().count('not found')}")


def p10_filters(vault):
    p = omh(vault, "find", "--type", "nosuch", "sync")
    line = first_line(p.stdout)
    say("10 a filter that leaves out every note", "store holds nothing" not in line and "nosuch" in line or "filter" in line,
        f"exit {p.returncode}: {line}")


def p11_move_back():
    d = repo("p11", {"a.md": "# A\n", "b.md": "See [[a]].\n", "taken.md": "# T\n"})
    omh(d, "index")
    there = omh(d, "mv", "a", "c")
    back = omh(d, "mv", "c", "a")
    clean = run(["git", "-C", d, "status", "--porcelain"]).stdout.decode().strip()
    taken = omh(d, "mv", "a", "taken")
    space = omh(d, "mv", "a", "a ")
    say("11 mv A B, then mv B A before a commit", there.returncode == 0 and back.returncode == 0 and not clean,
        f"exits {there.returncode}/{back.returncode}, git status after: {clean or 'clean'}; a taken key: {first_line(taken.stderr)!r}; a trailing space: {first_line(space.stderr)!r}")


def mcp_session(d, lines, allow_write=False, timeout=60):
    args = [OMH, "-C", d, "mcp"] + (["--allow-write"] if allow_write else [])
    start = time.monotonic()
    p = subprocess.run(args, input=b"".join(l + b"\n" for l in lines), capture_output=True, env=dict(ENV), timeout=timeout)
    replies = []
    for l in p.stdout.splitlines():
        if l.strip():
            r = json.loads(l)
            replies += r if isinstance(r, list) else [r]
    return p, replies, time.monotonic() - start


INIT = [json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}}).encode(),
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}']


def call(i, tool, args):
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": tool, "arguments": args}}).encode()


def p12_framing():
    d = repo("p12", {"a.md": "# A\n\nsync engines.\n"})
    omh(d, "index")
    bad = {"not json": b"{not json", "batch": b'[{"jsonrpc":"2.0","id":5,"method":"ping"}]',
           "object id": b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', "id 1e400": b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
           "nesting 2000": b'{"jsonrpc":"2.0","id":7,"method":"ping","params":' + b"[" * 2000 + b"]" * 2000 + b"}",
           "17 MB line": b'{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":"' + b"a" * (17 << 20) + b'"}}'}
    results = []
    for name, line in bad.items():
        p, replies, _ = mcp_session(d, INIT + [line, call(99, "find", {"question": "sync"})])
        answered = any(r.get("id") == 99 and "result" in r for r in replies)
        errors = sum(1 for r in replies if "error" in r)
        results.append(f"{name}: {errors} error(s), later call answered {answered}, exit {p.returncode}")
        ok = answered and p.returncode == 0
        if not ok:
            FAILED.append("12 " + name)
    say("12 bad lines to the MCP server", all("answered True, exit 0" in r for r in results), "; ".join(results))


def p13_end_of_input():
    d = repo("p13", {"a.md": "# A\n\nsync engines.\n"})
    omh(d, "index")
    p, replies, _ = mcp_session(d, INIT + [call(2, "find", {"question": "sync"}),
                                           call(3, "new", {"type": "note", "title": "Piped in"})], allow_write=True)
    ids = sorted(r.get("id") for r in replies if "id" in r)
    local = os.path.join(ENV["OMH_LOCAL_DIR"], "note", "piped-in.md")
    say("13 requests piped in just before end of input", ids == [1, 2, 3] and os.path.exists(local),
        f"answered ids {ids}, note written: {os.path.exists(local)}, exit {p.returncode}")


def p14_escapes():
    evil = "# Evil\n\nsync \x1b]0;title\x07\x1b[2J here \u009b31m and \u202egnirts\u202c and \x1b]52;c;aGk=\x07 end.\n"
    d = repo("p14", {"evil.md": evil})
    omh(d, "index")
    bad = ["\x1b", "\u009b", "\u202e", "\x07"]
    cli = omh(d, "show", "evil").stdout.decode() + omh(d, "find", "--cards", "sync").stdout.decode()
    _, replies, _ = mcp_session(d, INIT + [call(2, "show", {"key": "evil"}), call(3, "find", {"question": "sync"})])
    texts = "".join(c.get("text", "") for r in replies for c in r.get("result", {}).get("content", []))
    raw_cli = [repr(c) for c in bad if c in cli]
    raw_mcp = [repr(c) for c in bad if c in texts]
    js = json.loads(omh(d, "--json", "show", "evil").stdout)
    exact = "\x1b]0;title\x07" in strings_of(js)
    say("14 control and bidi characters in a note", not raw_cli and not raw_mcp and exact,
        f"raw in CLI text: {raw_cli or 'none'}; raw in MCP text: {raw_mcp or 'none'}; JSON exact: {exact}")


def strings_of(v):
    if isinstance(v, str):
        return v
    if isinstance(v, dict):
        v = list(v.values())
    return "".join(strings_of(x) for x in v) if isinstance(v, list) else ""


def p15_glob():
    d = repo("p15", many(300))
    write(os.path.join(d, ".omh", "config.yaml"), "exclude:\n  - '" + "**/a" * 9 + "**/zz.md'\n")
    git(d, "add", "-A")
    git(d, "commit", "-qm", "config")
    omh(d, "index")
    write(os.path.join(d, "notes", "a" * 40 + ".md"), "# x\n")
    p = omh(d, "find", "sync")
    say("15 an exclude glob of nine **", p.returncode == 0 and p.seconds < 2, f"find {p.seconds:.2f} s, exit {p.returncode}")


def p16_cliffs():
    d = repo("p16", {"a.md": "# A\n\nsync engines.\n"})
    omh(d, "index")
    words = " ".join(f"w{i:07d}x" for i in range(1_000_000))
    rss = os.path.join(WORK, "p16.rss")
    start = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss, OMH, "-C", d, "mcp"], env=dict(ENV), capture_output=True,
                       input=b"".join(l + b"\n" for l in INIT + [call(2, "find", {"question": words})]), timeout=300)
    took = time.monotonic() - start
    answered = any(json.loads(l).get("id") == 2 for l in p.stdout.splitlines() if l.strip())
    peak = int(open(rss).read().split()[-1]) // 1024
    say("16b an MCP question of a million distinct words", answered and took < 2, f"{took:.2f} s for the session, {peak} MiB peak, answered: {answered}")
    big = os.path.join(d, "sparse.md")
    with open(big, "wb") as f:
        f.truncate(8 << 30)
    p1 = omh(d, "find", "sync")
    os.utime(big)
    p2 = omh(d, "find", "sync")
    os.remove(big)
    say("16c an untracked 8 GB sparse .md", p1.seconds < 2 and p2.seconds < 2,
        f"find {p1.seconds:.2f} s, after a touch {p2.seconds:.2f} s; stderr: {first_line(p1.stderr)}")


def p17_wait():
    d = repo("p17", many(20000))
    omh(d, "index")
    proc = subprocess.Popen([OMH, "-C", d, "index", "--rebuild"], env=dict(ENV), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    p = omh(d, "find", "sync")
    proc.communicate()
    said = [l for l in p.stderr.decode().splitlines() if "wait" in l]
    say("17 find during another process's index --rebuild", p.returncode == 0 and (len(said) == 1 or p.seconds < 1),
        f"find {p.seconds:.1f} s, exit {p.returncode}; said: {said[0] if said else 'nothing'}")


def p18_smaller():
    # Crash switches in the binary as installed.
    d = repo("p18", {"a.md": "# A\n", "b.md": "See [[a]].\n"})
    omh(d, "index")
    p = omh(d, "mv", "a", "c", env={"OMH_CRASH_BEFORE_JOURNAL_STEP": "1"})
    say("18a crash switch in the installed build", p.returncode == 0 and os.path.exists(os.path.join(d, "c.md")),
        f"mv exit {p.returncode} with OMH_CRASH_BEFORE_JOURNAL_STEP=1")
    # A local core.hooksPath outside the repository.
    shared = os.path.join(WORK, "p18-hooks")
    shutil.rmtree(shared, ignore_errors=True)
    os.makedirs(shared)
    write(os.path.join(shared, "post-commit"), "#!/bin/sh\necho mine\n")
    git(d, "config", "core.hooksPath", shared)
    p = omh(d, "hooks", "install")
    say("18b hooks install with a local core.hooksPath outside the repository",
        os.listdir(shared) == ["post-commit"] and open(os.path.join(shared, "post-commit")).read() == "#!/bin/sh\necho mine\n",
        f"exit {p.returncode}: {first_line(p.stdout) or first_line(p.stderr)}")
    # Leftovers of a kill before the manifest.
    d = repo("p18j", many(300, link_every=2))
    omh(d, "index")
    omh(d, "mv", "hub", "hub2", binary=OMH_CRASH, env={"OMH_CRASH_BEFORE_JOURNAL_STEP": "1"})
    omh(d, "status")
    jdir = os.path.join(d, ".git", "omh-journal")
    left = [f for f in os.listdir(jdir) if f != "lock"] if os.path.isdir(jdir) else []
    say("18c journal leftovers after a kill, then any command", not left, f"left in .git/omh-journal: {left or 'nothing'}")
    # A failed mv on a read-only worktree.
    d = repo("p18r", {"a.md": "# A\n", "b.md": "See [[a]].\n"})
    omh(d, "index")
    if subprocess.run(["mount", "--bind", d, d], capture_output=True).returncode == 0:
        try:
            subprocess.run(["mount", "-o", "remount,bind,ro", d], check=True)
            p = omh(d, "mv", "a", "c")
            msg = p.stderr.decode()
            say("18d a failed mv on a read-only worktree", p.returncode != 0 and "omh recover finishes" not in msg,
                f"exit {p.returncode}: {first_line(p.stderr)}")
        finally:
            subprocess.run(["umount", d])
    else:
        print("18d a failed mv on a read-only worktree: skipped (mount not allowed)")
    # Moving a note into a submodule's folder.
    sub = repo("p18s-sub", {"x.md": "# X\n"})
    d = repo("p18s", {"a.md": "# A\n"})
    run(["git", "-C", d, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub"])
    git(d, "commit", "-qm", "sub")
    omh(d, "index")
    p = omh(d, "mv", "a", "sub/a")
    gitlink = "160000" in git(d, "ls-files", "--stage", "sub")
    say("18e mv into a submodule's folder", p.returncode != 0 and gitlink, f"exit {p.returncode}: {first_line(p.stderr)}; gitlink kept: {gitlink}")


# --- issue 34: nothing false, nothing outside ------------------------------


def fast_import(d, files, message="plumbing"):
    """Commits files {path: text} on HEAD's branch with git fast-import,
    which checks no path: a tree no checkout makes."""
    stream = f"commit refs/heads/main\ncommitter t <t@example.com> 1700000000 +0000\ndata {len(message)}\n{message}\n"
    if run(["git", "-C", d, "rev-parse", "--verify", "-q", "HEAD"]).returncode == 0:
        stream += "from refs/heads/main^0\n"
    body = b""
    for path, text in files.items():
        data = text.encode()
        body += f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n"
    p = run(["git", "-C", d, "fast-import", "--quiet"], stdin=stream.encode() + body + b"\n")
    if p.returncode != 0:
        raise RuntimeError(f"git fast-import: {p.stderr.decode()}")


def p34_1_stalled_client(calls=20000, seconds=10):
    sys.path.insert(0, os.path.join(HERE, "scripts"))
    import mcpstall
    d = repo("p34-1", many(2000))
    omh(d, "index")
    r = mcpstall.stall(OMH, d, calls, seconds, env=dict(ENV))
    say(f"34.1 an MCP client sending {calls} show calls and reading nothing for {seconds} s",
        r["highest_unread"] <= 200 and r["answered_once"] == calls,
        f"RSS {r['before']} MiB before, {r['highest_unread']} MiB at most while unread, {r['peak']} MiB peak; "
        f"{r['taken_at_stall']} calls written by the client when the stall ended; {r['answered_once']} of {calls} answered once")


def p34_1_cancel():
    d = repo("p34-1c", many(3000))
    omh(d, "index")
    lines = INIT + [call(i, "find", {"question": f"sync engines topic{i}"}) for i in range(2, 12)]
    lines += [json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": i}}).encode() for i in range(2, 12)]
    p, replies, _ = mcp_session(d, lines)
    codes = sorted({r["error"]["code"] for r in replies if "error" in r})
    answered = sorted(r["id"] for r in replies if r.get("id") not in (1, None))
    say("34.1b MCP calls cancelled as they run", 0 not in codes and answered == list(range(2, 12)),
        f"error codes {codes or 'none'} (cancelled: -32800); answered ids {answered}, exit {p.returncode}")


def p34_3_globs(rounds=3):
    d = repo("p34-3", many(6000))
    dirs = [f"notes/topic{i}" for i in range(50)] + ["notes"]
    globs = ["TOC.md"] + [[f"draft-{i}.md", f"{dirs[i % len(dirs)]}/archive-{i}/**", f"{dirs[i % len(dirs)]}/*/x-{i}-*.md"][i % 3]
                          for i in range(999)]
    cfg = os.path.join(d, ".omh", "config.yaml")
    times = {"none": [], "globs": []}
    for r in range(rounds):
        for kind, gl in (("none", []), ("globs", globs)):
            write(cfg, f"# round {r}\n" + ("exclude:\n" + "".join(f"  - '{g}'\n" for g in gl) if gl else ""))
            times[kind].append(omh(d, "find", "sync engines").seconds)
    none, with_ = sorted(times["none"])[rounds // 2], sorted(times["globs"])[rounds // 2]
    say(f"34.3 the first find after a config change, 1,000 exclude globs against none", with_ <= 2 * none,
        f"{with_:.2f} s against {none:.2f} s (medians of {rounds}), ratio {with_ / none:.2f}")


def p34_4_deep(levels=20000):
    d = repo("p34-4", {"a.md": "# A\n"})
    fast_import(d, {"/".join(["d"] * levels) + "/bottom.md": "# The bottom\n"}, "deep")
    p = omh(d, "--json", "index")
    said = [l for l in p.stderr.decode().splitlines() if "deeper than" in l]
    say(f"34.4 a committed tree {levels} folders deep", p.returncode == 0 and len(said) == 1 and team_notes(d) == 1 and p.seconds < 10,
        f"index {p.seconds:.2f} s, exit {p.returncode}, team notes {team_notes(d)}; said: {said[0][-70:] if said else 'nothing'}")


def p34_5_twins():
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    d = repo("p34-5", {nfc + ".md": "# Composed\n", nfd + ".md": "# Decomposed\n", "links.md": f"[[{nfc}]] and [[{nfd}]]\n"})
    omh(d, "index")
    before = tree_state(d)
    mv = omh(d, "--json", "mv", nfd, "moved")
    code = json.loads(mv.stdout or mv.stderr or b"{}").get("error", {}).get("code")
    single = repo("p34-5s", {nfc + ".md": "# Composed\n"})
    show = omh(single, "show", nfd)
    say("34.5 NFC and NFD twins", mv.returncode == 1 and code == "ambiguous" and tree_state(d) == before and show.returncode == 0,
        f"mv of the NFD name: exit {mv.returncode} ({code}), nothing changed: {tree_state(d) == before}; "
        f"show of an NFD key with an NFC note: exit {show.returncode} {first_line(show.stdout) or first_line(show.stderr)}")


def p34_6_dotgit():
    d = repo("p34-6", {"a.md": "# A\n", "b.md": "See [[a]].\n"})
    fast_import(d, {".git/victim.md": "See [[a]].\n", ".GIT/upper.md": "[[a]]\n"}, "plumbing")
    p = omh(d, "index")
    mv = omh(d, "mv", "a", "c")
    written = [f for f in ("victim.md", "c.md") if os.path.exists(os.path.join(d, ".git", f))]
    said = [l for l in p.stderr.decode().splitlines() if "git's own folder" in l]
    say("34.6 tree entries under .git", team_notes(d) == 2 and mv.returncode == 0 and not written and len(said) == 2,
        f"team notes {team_notes(d)}; mv exit {mv.returncode}; written in .git: {written or 'nothing'}; said {len(said)} line(s)")


def p34_9_controls():
    d = repo("p34-9", {"a.md": "# A\n"})
    priv = os.path.join(WORK, "p34-9-private")
    shutil.rmtree(priv, ignore_errors=True)
    env = {"OMH_LOCAL_DIR": priv}
    cli = omh(d, "new", "note", "Nul\x01here\x1b[31m", env=env)
    _, replies, _ = mcp_session(d, INIT + [call(2, "new", {"type": "note", "title": "Nul\u0000here"})], allow_write=True)
    text = "".join(c.get("text", "") for r in replies if r.get("id") == 2 for c in r.get("result", {}).get("content", []))
    files = [f for _, _, fs in os.walk(priv) for f in fs] + [f for _, _, fs in os.walk(ENV["OMH_LOCAL_DIR"]) for f in fs if "nul" in f]
    say("34.9 control characters in a new note's title", cli.returncode == 2 and text.startswith("usage:") and not files,
        f"omh new exit {cli.returncode}: {first_line(cli.stderr)}; MCP new: {text[:60]!r}; files written: {files or 'none'}")


def p34_linked_root():
    d = repo("p34-s", {"real/a.md": "# A\n", "real/sub/b.md": "# B\n"})
    os.symlink("real", os.path.join(d, "docs"))
    write(os.path.join(d, ".omh", "config.yaml"), "notes: docs/sub\n")
    git(d, "add", "-A")
    git(d, "commit", "-qm", "a linked notes root")
    out = []
    for notes in ("docs", "docs/sub"):
        write(os.path.join(d, ".omh", "config.yaml"), f"notes: {notes}\n")
        p = omh(d, "find", "a")
        out.append((p.returncode, first_line(p.stderr)))
    ok = all(code == 1 and "symbolic link" in msg and "partial clone" not in msg for code, msg in out)
    say("34.s a notes root through a committed symbolic link", ok, "; ".join(f"exit {c}: {m}" for c, m in out))


# --- issue 34: nothing false, nothing outside --------------------------------


def hits(p):
    """The hits of an omh --json find, as (key, layer, date) triples."""
    if p.returncode != 0:
        return None
    return [(h["key"], h.get("layer"), h.get("date")) for h in json.loads(p.stdout).get("hits", [])]


def p34_2_eol():
    private = {"OMH_LOCAL_DIR": os.path.join(WORK, "p34-2-private")}
    for how in ("eol=crlf", "core.autocrlf=true"):
        d = repo("p34-2", many(40))
        if how == "eol=crlf":
            write(os.path.join(d, ".gitattributes"), "*.md text eol=crlf\n")
            git(d, "add", "-A")
            git(d, "commit", "-qm", "attributes")
        else:
            git(d, "config", "core.autocrlf", "true")
        omh(d, "index", env=private)
        for root, _, files in os.walk(os.path.join(d, "notes")):
            for f in files:
                os.remove(os.path.join(root, f))
        git(d, "checkout", "--", ".")
        crlf = b"\r\n" in open(os.path.join(d, "notes", "n00000.md"), "rb").read()
        omh(d, "find", "sync", env=private)
        st = json.loads(omh(d, "--json", "status", env=private).stdout or b"{}")
        clean = run(["git", "-C", d, "status", "--porcelain"]).stdout.decode().strip() == ""
        notes = st.get("notes", {})
        say(f"34.2 notes checked out again with {how}", crlf and clean and notes.get("local") == 0 and notes.get("team") == 41,
            f"CRLF on disk {crlf}, git status clean {clean}; omh: {notes.get('team')} team, {notes.get('local')} local, uncommitted {st.get('uncommitted')}")


def p34_7_flips(flips=150):
    import random
    d = repo("p34-7", many(400))
    questions = ["sync engines", "topic7 hub", "words about topic42"]
    omh(d, "index")
    want = [hits(omh(d, "--json", "find", q)) for q in questions]
    cache = os.path.join(d, ".git", "omh")
    db = [f for f in os.listdir(cache) if f.startswith("cache-") and f.endswith(".db")][0]
    pristine = open(os.path.join(cache, db), "rb").read()
    rng = random.Random(34)
    wrong, rebuilt, same = [], 0, 0
    for k in range(flips):
        for f in os.listdir(cache):
            if f.startswith("cache-"):
                os.remove(os.path.join(cache, f))
        b = bytearray(pristine)
        at, bit = rng.randrange(len(b)), rng.randrange(8)
        b[at] ^= 1 << bit
        open(os.path.join(cache, db), "wb").write(bytes(b))
        said, got = "", []
        for q in questions:
            p = omh(d, "--json", "find", q)
            said += p.stderr.decode()
            got.append(hits(p))
        if got != want:
            wrong.append(f"byte {at} bit {bit}: {first_line(said.encode()) or 'nothing said'}")
        elif "damaged" in said:
            rebuilt += 1
        else:
            same += 1
    say(f"34.7 {flips} single-bit flips of the cache", not wrong,
        f"{same} answered as before, {rebuilt} rebuilt (damage found), {len(wrong)} wrong: {wrong[:5] or 'none'}")


def p34_8_foreign_cache():
    a = repo("p34-8a", {"vault/.obsidian/app.json": "{}\n", "vault/one.md": "# One\n\n[[two]]\n",
                        "vault/two.md": "# Two\n\n[[one]]\n", "README.md": "# Readme\n"})
    omh(a, "find", "one")
    b = repo("p34-8b", {"a.md": "# A\n\nsync\n", "b.md": "# B\n\nsync [[a]]\n"})
    shutil.copytree(os.path.join(a, ".git", "omh"), os.path.join(b, ".git", "omh"))
    p = omh(b, "--json", "find", "sync")
    got = sorted(k for k, _, _ in hits(p) or [])
    rebuild = omh(b, "index", "--rebuild")
    blames = "config.yaml" in p.stderr.decode() and "exists neither" in p.stderr.decode()
    say("34.8 another repository's .git/omh copied in", got == ["a", "b"] and not blames and rebuild.returncode == 0,
        f"find answers {got}; a missing config blamed: {blames}; said: {first_line(p.stderr) or 'nothing'}")


def files_of(d):
    """Every file under d with its bytes."""
    out = []
    for root, dirs, files in os.walk(d):
        dirs.sort()
        for f in sorted(files):
            with open(os.path.join(root, f), "rb") as fh:
                out.append((os.path.relpath(os.path.join(root, f), d), fh.read()))
    return out


def last_line(b):
    s = b.decode(errors="replace").strip()
    return s.splitlines()[-1] if s else ""


def p34_10_linked_cache():
    outside = os.path.join(WORK, "p34-10-outside")
    shutil.rmtree(outside, ignore_errors=True)
    os.makedirs(outside)
    d = repo("p34-10", many(30))
    omh(d, "index")
    cache = os.path.join(d, ".git", "omh")
    db = [f for f in os.listdir(cache) if f.startswith("cache-") and f.endswith(".db")][0]
    shutil.copy(os.path.join(cache, db), os.path.join(outside, "copy.db"))
    os.remove(os.path.join(cache, db))
    os.symlink(os.path.join(outside, "copy.db"), os.path.join(cache, db))
    os.symlink(os.path.join(outside, "log"), os.path.join(cache, db + "-wal"))
    before = files_of(outside)
    p1 = omh(d, "find", "sync")
    shutil.rmtree(cache)
    os.symlink(outside, cache)
    p2 = omh(d, "find", "sync")
    after = files_of(outside)
    say("34.10 a cache file, its log and the cache folder linked outside", before == after and p1.returncode == 0 and p2.returncode == 0
        and not os.path.islink(cache), f"outside unchanged: {before == after}; finds exit {p1.returncode}/{p2.returncode}; said: {first_line(p2.stderr)}")


def p34_11_planted_journal():
    outside = os.path.join(WORK, "p34-11-written.md")
    if os.path.exists(outside):
        os.remove(outside)
    d = repo("p34-11", {"a.md": "# A\n\nsync\n"})
    omh(d, "index")
    j = os.path.join(d, ".git", "omh-journal")
    os.makedirs(j, exist_ok=True)
    write(os.path.join(j, "payload-1"), "planted\n")
    write(os.path.join(j, "manifest.json"), json.dumps({"command": "omh mv a b", "root": "..", "ops": [
        {"kind": "put", "path": outside, "payload": "payload-1", "mode": 420}]}))
    p = omh(d, "find", "sync")
    said = p.stderr.decode()
    say("34.11 a planted journal with a put to an outside path", p.returncode == 0 and not os.path.exists(outside) and "finished" not in said,
        f"find exit {p.returncode}, outside file written: {os.path.exists(outside)}; said: {first_line(p.stderr)}")


def p34_small_disk():
    full = os.path.join(WORK, "p34-full")
    if os.path.ismount(full):
        subprocess.run(["umount", full])
    shutil.rmtree(full, ignore_errors=True)
    os.makedirs(full)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", full], capture_output=True).returncode != 0:
        print("34.disk a full disk: skipped (mount not allowed)")
        return
    try:
        d = os.path.join(full, "r")
        os.makedirs(d)
        git(d, "init", "-q", "-b", "main")
        for path, text in many(60).items():
            write(os.path.join(d, path), text)
        git(d, "add", "-A")
        git(d, "commit", "-qm", "notes")
        omh(d, "index")
        want = hits(omh(d, "--json", "find", "sync"))
        st = os.statvfs(full)
        free = st.f_bavail * st.f_frsize
        with open(os.path.join(full, "filler"), "wb") as f:
            f.write(b"\0" * max(0, free - 12 * 1024))
        p = omh(d, "--json", "find", "sync")
        lines = [l for l in p.stderr.decode().splitlines() if l.strip()]
        say("34.disk find with 12 KB free", hits(p) == want and len(lines) == 1,
            f"exit {p.returncode}, same hits {hits(p) == want}; said: {lines}")
        p = omh(d, "mv", "notes/hub", "notes/hub2")
        pending = os.path.exists(os.path.join(d, ".git", "omh-journal", "manifest.json"))
        says = "omh recover" in p.stderr.decode()
        say("34.disk mv with 12 KB free", p.returncode != 0 and says == pending,
            f"exit {p.returncode}, a change pending {pending}, omh recover named {says}: {last_line(p.stderr)}")
    finally:
        subprocess.run(["umount", full])


def p34_sync_eio():
    if not shutil.which("strace"):
        print("34.eio an EIO on the journal folder's fsync: skipped (no strace)")
        return
    d = repo("p34-eio", {"a.md": "# A\n", "b.md": "See [[a]].\n"})
    omh(d, "index")
    before = tree_state(d)
    j = os.path.join(d, ".git", "omh-journal")
    os.makedirs(j, exist_ok=True)
    p = run(["strace", "-f", "-o", "/dev/null", "-P", j, "-e", "trace=fsync", "-e", "inject=fsync:error=EIO", OMH, "-C", d, "mv", "a", "c"])
    if b"ptrace" in p.stderr and p.returncode != 0 and b"omh" not in p.stderr:
        print("34.eio an EIO on the journal folder's fsync: skipped (ptrace not allowed)")
        return
    pending = os.path.exists(os.path.join(j, "manifest.json"))
    says = "omh recover" in p.stderr.decode()
    nxt = omh(d, "status")
    after = tree_state(d)
    done = os.path.exists(os.path.join(d, "c.md")) and not os.path.exists(os.path.join(d, "a.md"))
    say("34.eio an EIO on the journal folder's fsync", p.returncode != 0 and says == pending and nxt.returncode == 0 and (after == before or done),
        f"mv exit {p.returncode}, pending {pending}, omh recover named {says}; after the next command: {'as before' if after == before else 'as after' if done else 'half done'}; said: {first_line(p.stderr)}")


def main():
    global WORK, OMH, OMH_CRASH, ENV
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    WORK = os.path.abspath(sys.argv[1])
    only = set(sys.argv[2:])
    os.makedirs(WORK, exist_ok=True)
    OMH, OMH_CRASH = os.path.join(WORK, "omh"), os.path.join(WORK, "omh-crash")
    subprocess.run(["go", "build", "-o", OMH, "./cmd/omh"], cwd=HERE, check=True)
    subprocess.run(["go", "build", "-tags", "crashpoints", "-o", OMH_CRASH, "./cmd/omh"], cwd=HERE, check=True)
    home = os.path.join(WORK, "home")
    os.makedirs(home, exist_ok=True)
    ENV = {"PATH": os.environ["PATH"], "HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "OMH_LOCAL_DIR": os.path.join(WORK, "private"), "LC_ALL": "C.UTF-8"}
    vault = os.path.join(WORK, "obsidian")
    bundle = os.path.join(HERE, "..", "shared", "data", "vaults", "obsidian-help-en.bundle")
    probes = [("1", p1_first_commit), ("2", p2_copy_after_crash), ("3", p3_unwritable_journal), ("4", p4_commit_race),
              ("5", p5_other_device), ("6", p6_private_inside), ("7", p7_corrupt_cache), ("9", p9_repack),
              ("10", lambda: p10_filters(vault)), ("11", p11_move_back), ("12", p12_framing), ("13", p13_end_of_input),
              ("14", p14_escapes), ("15", p15_glob), ("16", p16_cliffs), ("17", p17_wait), ("18", p18_smaller),
              ("34.1", p34_1_stalled_client), ("34.1b", p34_1_cancel), ("34.3", p34_3_globs), ("34.4", p34_4_deep),
              ("34.5", p34_5_twins), ("34.6", p34_6_dotgit), ("34.9", p34_9_controls), ("34.s", p34_linked_root),
              ("34.2", p34_2_eol), ("34.7", p34_7_flips), ("34.8", p34_8_foreign_cache), ("34.10", p34_10_linked_cache),
              ("34.11", p34_11_planted_journal), ("34.disk", p34_small_disk), ("34.eio", p34_sync_eio)]
    if not os.path.isdir(vault) and os.path.exists(bundle):
        subprocess.run(["git", "clone", "-q", bundle, vault], check=True)
    for name, fn in probes:
        if only and name not in only:
            continue
        if name == "10" and not os.path.isdir(vault):
            print(f"{name}: skipped (no real vault beside the checkout)")
            continue
        try:
            fn()
        except Exception as e:  # a probe that cannot run is a failure, not a crash of the rest
            say(name, False, f"could not run: {e}")
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
