#!/usr/bin/env python3
"""omh mcp under a client that sends many calls and stops reading: the
server's memory while the client reads nothing, and whether every answer
arrives once it reads.

    python3 scripts/mcpstall.py STORE [CALLS] [SECONDS] [OMH]

STORE is a repository of notes (its cache is built first, so the figures
are the server's, not a first index's); CALLS (default 100000) show calls
of one of its notes are written as fast as the server takes them, while
nothing is read for SECONDS (default 30). OMH is the binary (default: omh
on PATH). Prints the server's resident memory (VmRSS, sampled every
0.2 s) before the calls and at its highest while unread, its peak over
the whole session (VmHWM), how many calls the client had written into
the pipe when the stall ended, and how many answers arrived, each id once. Linux only (/proc).
"""
import io
import json
import subprocess
import sys
import threading
import time

INIT = [{"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "stall", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def mib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) // 1024
    return 0


def a_note(omh, store, env):
    p = subprocess.run([omh, "-C", store, "--json", "find", "the"], capture_output=True, env=env)
    hits = json.loads(p.stdout or b"{}").get("hits", [])
    if not hits:
        sys.exit(f"no note found in {store}: {p.stderr.decode()}")
    return hits[0]["key"]


def stall(omh, store, calls=100000, seconds=30, env=None):
    """Runs one session; returns a dict of what was measured."""
    key = a_note(omh, store, env)
    proc = subprocess.Popen([omh, "-C", store, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, bufsize=0)
    time.sleep(0.5)
    before = mib(proc.pid, "VmRSS")
    taken = [0]

    def send():
        try:
            for m in INIT:
                proc.stdin.write((json.dumps(m) + "\n").encode())
            for i in range(calls):
                proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                    "name": "show", "arguments": {"key": key}}}) + "\n").encode())
                taken[0] = i + 1
            proc.stdin.close()
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=send, daemon=True)
    writer.start()
    highest, end = before, time.monotonic() + seconds
    while time.monotonic() < end:
        highest = max(highest, mib(proc.pid, "VmRSS"))
        time.sleep(0.2)
    taken_at_stall = taken[0]
    answers = {}
    # stdin is unbuffered, to count what was written; stdout is read buffered.
    for line in io.open(proc.stdout.fileno(), "rb", buffering=1 << 20, closefd=False):
        r = json.loads(line)
        answers[r.get("id")] = answers.get(r.get("id"), 0) + 1
        if len(answers) == calls + 1:
            peak = mib(proc.pid, "VmHWM")
            break
    else:
        peak = 0
    writer.join()
    proc.wait()
    once = sum(1 for i in range(calls) if answers.get(i) == 1)
    return {"key": key, "before": before, "highest_unread": highest, "peak": peak,
            "taken_at_stall": taken_at_stall, "answered_once": once, "calls": calls, "exit": proc.returncode}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    store = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 30
    omh = sys.argv[4] if len(sys.argv) > 4 else "omh"
    subprocess.run([omh, "-C", store, "index"], capture_output=True)
    r = stall(omh, store, calls, seconds)
    print(f"{omh}: show {r['key']} x {r['calls']}, unread for {seconds:g} s: RSS {r['before']} MiB before, "
          f"{r['highest_unread']} MiB at most while unread, {r['peak']} MiB peak (VmHWM); "
          f"{r['taken_at_stall']} calls written when it ended; {r['answered_once']} of {r['calls']} answered once; exit {r['exit']}")


if __name__ == "__main__":
    main()
