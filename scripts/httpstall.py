#!/usr/bin/env python3
"""omh mcp --http under clients that send and never read: the server's
memory while they stall, and how long a client that reads waits behind
them.

    python3 scripts/httpstall.py STORE KEY [CONNECTIONS] [CALLS] [OMH]

STORE is a repository of notes with its cache built; KEY a large note in
it, shown whole (max_chars 1,000,000) by every call. CONNECTIONS (default
200) each write up to CALLS (default 500) pipelined calls, as many as the
kernel takes, and read nothing for 20 s while the server's resident memory
(VmRSS) is sampled every 0.2 s; then one client makes a call and reads its
answer. OMH is the binary (default: omh on PATH). Linux only (/proc).
"""
import http.client
import json
import re
import socket
import subprocess
import sys
import time


def rss_mib(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    store, key = sys.argv[1], sys.argv[2]
    conns = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    calls = int(sys.argv[4]) if len(sys.argv) > 4 else 500
    omh = sys.argv[5] if len(sys.argv) > 5 else "omh"
    server = subprocess.Popen([omh, "-C", store, "mcp", "--http", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
    for line in server.stderr:
        m = re.search(r"127\.0\.0\.1:(\d+)", line)
        if m:
            port = int(m.group(1))
            break
    else:
        raise SystemExit("omh mcp --http printed no address")
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "show", "arguments": {"key": key, "max_chars": 1000000}}})
    request = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
               f"Accept: application/json, text/event-stream\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode()
    before = rss_mib(server.pid)
    socks, written = [], 0
    for _ in range(conns):
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.setblocking(False)
        socks.append(s)
        for _ in range(calls):
            try:
                s.send(request)
                written += 1
            except BlockingIOError:
                break
    peak, t = 0.0, time.monotonic()
    while time.monotonic() - t < 20:
        peak = max(peak, rss_mib(server.pid))
        time.sleep(0.2)
    t0 = time.monotonic()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    c.request("POST", "/mcp", body=body, headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    r = c.getresponse()
    n = len(r.read())
    waited = time.monotonic() - t0
    print(f"RSS before {before:.1f} MiB; {conns} connections wrote {written} calls and read nothing: "
          f"RSS at most {peak:.1f} MiB over 20 s")
    print(f"a reading client then: status {r.status}, {n} bytes after {waited:.1f} s; "
          f"RSS {rss_mib(server.pid):.1f} MiB, peak (VmHWM) {rss_mib(server.pid, 'VmHWM'):.1f} MiB")
    server.terminate()
    server.wait()


if __name__ == "__main__":
    main()
