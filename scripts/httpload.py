#!/usr/bin/env python3
"""omh mcp --http under many clients at once, with commits to the
repository during the run: errors, whether every answer is the one a fresh
server gives for the store as it stood during the call, latency, memory;
then the same server off loopback without the token.

    python3 scripts/httpload.py BUNDLE GOLD [--omh OMH] [--clients 50]
        [--calls 200] [--commits 12]

BUNDLE is a git bundle of a real vault (it is cloned into a temporary
folder outside any repository and given omh init); GOLD is a question file
of that vault with phrasings (*-also.jsonl): its first eight questions are
the find calls, the notes they rank first the show and links calls. Each
client keeps one connection and makes CALLS calls, find, show and links in
turn from a place of its own in the list; meanwhile a committer rewrites
one of the shown notes (adding a line with the questions' words) and
commits it, COMMITS times, spread over the run.

Every answer is checked afterwards: each state the working tree passed
through (each commit, and each edit written before its commit) is
rebuilt in a scratch clone, a fresh `omh mcp` on standard input and output
answers every call there, and an answer over HTTP must equal the fresh
answer of a state that stood at some moment between its request and its
reply. Prints the count of errors and mismatches, the median and 99th
percentile latency, the server's resident memory (VmRSS) after the first
1,000 calls and after all, and for the server on 0.0.0.0 with a token
(OMH_MCP_TOKEN), the statuses of calls made without it. Linux only (/proc).
"""
import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ACCEPT = "application/json, text/event-stream"


def run(*args, cwd=None, env=None, stdin=None):
    return subprocess.run(args, cwd=cwd, env=env, input=stdin, capture_output=True, check=True).stdout


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def start_server(omh, repo, addr, env=None):
    p = subprocess.Popen([omh, "-C", repo, "mcp", "--http", addr], stderr=subprocess.PIPE, env=env, text=True)
    for line in p.stderr:
        m = re.search(r"http://([^/ ]+)/mcp", line)
        if m:
            threading.Thread(target=p.stderr.read, daemon=True).start()
            host, port = m.group(1).rsplit(":", 1)
            return p, host, int(port)
    raise SystemExit(f"omh mcp --http {addr} printed no address; exit {p.wait()}")


def message(i, call):
    name, args = call
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": args}})


def post(conn, body, headers=None):
    h = {"Content-Type": "application/json", "Accept": ACCEPT}
    h.update(headers or {})
    conn.request("POST", "/mcp", body=body, headers=h)
    r = conn.getresponse()
    return r.status, r.read()


def calls_of(omh, repo, gold):
    """The find calls (questions with phrasings), and show and links of the
    notes they rank first."""
    qs = [json.loads(l) for l in open(gold) if l.strip()][:8]
    finds = [("find", {"question": q["question"], "phrasings": q.get("also", [])}) for q in qs]
    keys = []
    for q in qs:
        hits = json.loads(run(omh, "-C", repo, "--json", "find", q["question"]))["hits"]
        if hits and hits[0]["key"] not in keys:
            keys.append(hits[0]["key"])
    return finds + [("show", {"key": k}) for k in keys] + [("links", {"key": k}) for k in keys], keys, qs


def fresh_answers(omh, repo, calls):
    """Each call's result from a fresh omh mcp on standard input and output."""
    lines = [json.dumps({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "load", "version": "1"}}}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})]
    lines += [message(i, c) for i, c in enumerate(calls)]
    out = run(omh, "-C", repo, "mcp", stdin=("\n".join(lines) + "\n").encode())
    results = {}
    for line in out.splitlines():
        m = json.loads(line)
        if isinstance(m.get("id"), int):
            results[m["id"]] = m.get("result")
    return [results[i] for i in range(len(calls))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle")
    ap.add_argument("gold")
    ap.add_argument("--omh", default="omh")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--commits", type=int, default=12)
    a = ap.parse_args()
    omh = os.path.abspath(a.omh) if os.sep in a.omh else a.omh
    tmp = tempfile.mkdtemp(prefix="omh-httpload-")
    repo = os.path.join(tmp, "repo")
    run("git", "clone", "-q", a.bundle, repo)
    for k, v in (("user.name", "load"), ("user.email", "load@example.invalid")):
        run("git", "-C", repo, "config", k, v)
    run(omh, "-C", repo, "init", "--no-hooks")
    run("git", "-C", repo, "add", ".omh")
    run("git", "-C", repo, "commit", "-qm", "omh init")
    calls, keys, qs = calls_of(omh, repo, a.gold)
    edited = os.path.join(repo, json.loads(run(omh, "-C", repo, "--json", "show", keys[0]))["notes"][0]["path"])
    words = " ".join(q["question"] for q in qs[:3])

    server, host, port = start_server(omh, repo, "127.0.0.1:0")
    total = a.clients * a.calls
    done = [0]
    lock = threading.Lock()
    rss_first = [None]
    # Each state with the moments just before and just after it came to be.
    now = time.monotonic()
    states = [("commit", run("git", "-C", repo, "rev-parse", "HEAD").decode().strip(), now, now)]
    records = []  # (call index, sent, received, status, body)

    def client(c):
        conn = http.client.HTTPConnection(host, port, timeout=120)
        mine = []
        for j in range(a.calls):
            ci = (c * 7 + j) % len(calls)
            body = message(j, calls[ci])
            t0 = time.monotonic()
            try:
                status, data = post(conn, body)
            except Exception as e:  # counted as an error
                status, data = 0, str(e).encode()
                conn = http.client.HTTPConnection(host, port, timeout=120)
            mine.append((ci, t0, time.monotonic(), status, data))
            with lock:
                done[0] += 1
                if done[0] == 1000:
                    rss_first[0] = rss_mib(server.pid)
        with lock:
            records.extend(mine)

    def committer():
        for k in range(1, a.commits + 1):
            while done[0] < total * k // (a.commits + 1):
                time.sleep(0.01)
            t = time.monotonic()
            with open(edited, "a") as f:
                f.write(f"\nLine {k} added during the load run: {words}\n")
            states.append(("edit", k, t, time.monotonic()))
            t = time.monotonic()
            run("git", "-C", repo, "commit", "-qam", f"load edit {k}")
            states.append(("commit", run("git", "-C", repo, "rev-parse", "HEAD").decode().strip(), t, time.monotonic()))

    threads = [threading.Thread(target=client, args=(c,)) for c in range(a.clients)]
    ct = threading.Thread(target=committer)
    start = time.monotonic()
    for t in threads + [ct]:
        t.start()
    for t in threads + [ct]:
        t.join()
    wall = time.monotonic() - start
    rss_end = rss_mib(server.pid)
    server.terminate()
    server.wait()

    # Rebuild every state and answer each call there afresh.
    scratch = os.path.join(tmp, "scratch")
    run("git", "clone", "-q", repo, scratch)
    for k, v in (("user.name", "load"), ("user.email", "load@example.invalid")):
        run("git", "-C", scratch, "config", k, v)
    rel = os.path.relpath(edited, repo)
    expected = []
    prev_commit = None
    for kind, what, _, _ in states:
        if kind == "commit":
            run("git", "-C", scratch, "reset", "-q", "--hard", what)
            prev_commit = what
        else:  # the next commit's edit, written and not yet committed
            run("git", "-C", scratch, "reset", "-q", "--hard", prev_commit)
            with open(os.path.join(scratch, rel), "a") as f:
                f.write(f"\nLine {what} added during the load run: {words}\n")
        expected.append(fresh_answers(omh, scratch, calls))

    errors = mismatches = 0
    latencies = []
    example = None
    for ci, t0, t1, status, data in records:
        latencies.append(t1 - t0)
        if status != 200:
            errors += 1
            example = example or (status, data[:200])
            continue
        m = json.loads(data)
        if "result" not in m:
            errors += 1
            example = example or (status, data[:200])
            continue
        # A state stood during the call if it began before the reply and
        # the next had not surely begun when the request was sent.
        alive = [i for i, s in enumerate(states) if s[2] <= t1 and (i + 1 == len(states) or states[i + 1][3] >= t0)]
        if not any(expected[i][ci] == m["result"] for i in alive):
            mismatches += 1
            example = example or ("mismatch", calls[ci], [states[i][:2] for i in alive])
    latencies.sort()
    med = statistics.median(latencies)
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    changed = sum(1 for ci in range(len(calls)) if len({json.dumps(e[ci], sort_keys=True) for e in expected}) > 1)
    print(f"calls {len(records)} ({a.clients} clients x {a.calls}) in {wall:.1f} s; {a.commits} commits; "
          f"{len(states)} states; {changed} of {len(calls)} distinct calls answer differently across them")
    print(f"errors {errors}, answers unlike a fresh server's for a state standing during the call {mismatches}")
    if example:
        print(f"  first: {example}")
    print(f"latency median {med * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, p99/median {p99 / med:.2f}")
    if rss_first[0] is None:  # fewer than 1,000 calls
        rss_first[0] = rss_end
    print(f"RSS after the first 1,000 calls {rss_first[0]:.1f} MiB, after all {rss_end:.1f} MiB, "
          f"ratio {rss_end / rss_first[0]:.3f}")

    # Off loopback with a token: every call without it is refused.
    env = dict(os.environ, OMH_MCP_TOKEN="load-test-token-0123456789")
    server, _, port = start_server(omh, repo, "0.0.0.0:0", env=env)
    statuses = {}
    for c in range(a.clients):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for j in range(20):
            status, _ = post(conn, message(j, calls[j % len(calls)]))
            statuses[status] = statuses.get(status, 0) + 1
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    with_token, _ = post(conn, message(0, calls[0]), {"Authorization": "Bearer load-test-token-0123456789"})
    server.terminate()
    server.wait()
    print(f"0.0.0.0 with a token, {sum(statuses.values())} calls without it: statuses {statuses}; with it: {with_token}")
    subprocess.run(["rm", "-rf", tmp])
    ok = errors == 0 and mismatches == 0 and p99 <= 4 * med and rss_end <= 1.2 * rss_first[0] and set(statuses) == {401}
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
