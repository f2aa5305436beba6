"""`bench_serve.py --attacks`: what a guest at the door tries, each bounded, on 127.0.0.1.

* replays: every form of the keeper and the organiser posted again (ten times) after its
  answer; the rows added by the replays (deals, seats, closes, sessions) must be 0, and a
  deal form replayed after that deal's undo must not be answered "recorded".
* streams at 1,024 files: 800 open streams from one address while the keeper's page is
  loaded 20 times; every load answered. The server's memory before, during and after.
* viewers at 256 files: 15 viewers (page and stream each) and the keeper's page, 20 loads.
* restore: a backup copied over the file (`cp`, the same inode) under a running server,
  with an open stream: the stream ends with the reason within 2 s, and a write after it
  is refused.
* moved: the sessions' stream ends with the reason when the file is moved.
* wrong keys: 200 wrong keys sent from the keeper's own address while the right key
  loads the keeper's page; the right key's 95th percentile under 100 ms.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import html
import os
import re
import resource
import shutil
import socket
import sqlite3
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx2

from napledger.web.keys import organiser_key, session_key

KEY = "benchmark-secret"  # as bench_serve's servers are started with
REPLAYS = 10
STREAMS_AT_1024, VIEWERS_AT_256, KEEPER_LOADS = 800, 15, 20
WRONG_KEYS = 200

Start = Callable[..., tuple[object, str]]


def rows(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as c:
        return {
            t: c.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("deals", "roster", "closes", "sessions")
        }


def hidden(page: str, action: str) -> dict[str, str]:
    form = re.search(rf'<form[^>]*action="/s/1/{action}".*?</form>', page, re.S)
    assert form, action
    found = re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', form.group(0))
    return {name: html.unescape(value) for name, value in found}


def replays(db: Path, start: Start, stop: Callable[[object], None]) -> None:
    server, base = start(db)
    keeper = f"{base}/s/1/keep?key={session_key(KEY, 1)}"
    client = httpx2.Client(timeout=10, headers={"origin": base})
    extra: dict[str, int] = {}
    told_after_undo = ""
    try:

        def replay(name: str, path: str, fields: dict[str, str]) -> None:
            client.post(base + path, data=fields)
            after = rows(db)
            for _ in range(REPLAYS):
                client.post(base + path, data=fields)
            extra[name] = sum(rows(db).values()) - sum(after.values())

        page = lambda: client.get(keeper).text  # noqa: E731
        deal = {"bid": "3", "by": "Ann", "result": "made"}
        replay("hand", "/s/1/hand", {**hidden(page(), "hand"), **deal})
        replay("pass", "/s/1/pass", hidden(page(), "pass"))
        amend = {**hidden(page(), "hand"), "bid": "nap", "by": "Ben", "result": "failed"}
        replay("amend", "/s/1/amend", amend)
        replay("undo", "/s/1/undo", hidden(page(), "undo"))
        hand = {**hidden(page(), "hand"), **deal}
        client.post(base + "/s/1/hand", data=hand)
        client.post(base + "/s/1/undo", data=hidden(page(), "undo"))
        again = client.post(base + "/s/1/hand", data=hand)  # after that deal's undo
        told_after_undo = "recorded" if "recorded" in again.headers.get("location", "") else ""
        replay("join", "/s/1/join", {**hidden(page(), "join"), "player": "Zed"})
        replay("leave", "/s/1/leave", {**hidden(page(), "leave"), "player": "Zed"})
        fixing = client.get(f"{keeper}&amend=1").text  # deal 1's form, to void it
        void = hidden(fixing, "amend")  # the amend form's Void button posts it to /void
        replay("void", "/s/1/void", {k: void[k] for k in ("key", "number", "revision")})
        asked = client.post(base + "/s/1/closing", data={"key": session_key(KEY, 1)}).text
        replay("close", "/s/1/close", hidden(asked, "close"))
        replay("reopen", "/s/1/reopen", hidden(page(), "reopen"))
        new = {"key": organiser_key(KEY), "name": "replayed", "players": "Ann\nBen\nCat"}
        replay("new", "/new", new)
    finally:
        client.close()
        stop(server)
    total = sum(extra.values())
    verdict = "ok" if total == 0 and not told_after_undo else "FAILED"
    forms = ", ".join(f"{k} {v}" for k, v in extra.items())
    print(f"replays: each form {REPLAYS}x again: extra rows {total} ({forms})  {verdict}")
    print(
        f"  a deal form replayed after that deal's undo: {'told recorded' if told_after_undo else 'refused'}"
    )


def memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def open_streams(base: str, n: int, path: str = "/s/1/events") -> list[socket.socket]:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    held = []
    for _ in range(n):
        s = socket.create_connection((host, int(port)), timeout=10)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        held.append(s)
    return held


def keeper_loads(base: str, loads: int = KEEPER_LOADS) -> tuple[int, list[float]]:
    answered, times = 0, []
    for _ in range(loads):
        begun = time.perf_counter()
        try:
            page = httpx2.get(f"{base}/s/1/keep?key={session_key(KEY, 1)}", timeout=5)
            answered += page.status_code == 200
        except httpx2.HTTPError:
            pass
        times.append(time.perf_counter() - begun)
    return answered, times


def crowd(db: Path, start: Start, stop: Callable[[object], None]) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    try:
        server, base = start(db, files=1024)
        pid = server.pid  # type: ignore[attr-defined]
        try:
            httpx2.get(base + "/s/1", timeout=5)
            for s in open_streams(base, 4):  # warmed up: a stream's first costs are paid once
                s.close()
            time.sleep(1)
            idle = memory_mb(pid)
            held = open_streams(base, STREAMS_AT_1024)
            time.sleep(1)  # the server reads them in
            during = memory_mb(pid)
            answered, times = keeper_loads(base)
            for s in held:
                s.close()
            time.sleep(5)  # the server hears each one close
            after = memory_mb(pid)
        finally:
            stop(server)
        verdict = "ok" if answered == KEEPER_LOADS else "FAILED"
        print(
            f"streams: {STREAMS_AT_1024} from one address, file limit 1,024: keeper's page "
            f"{answered}/{KEEPER_LOADS} answered, median {statistics.median(times) * 1000:.0f} ms  "
            f"{verdict}"
        )
        print(
            f"  memory: idle {idle:.0f} MB, with the streams {during:.0f} MB, after {after:.0f} MB"
        )
        server, base = start(db, files=256)
        try:
            viewers = []
            for _ in range(VIEWERS_AT_256):
                httpx2.get(base + "/s/1", timeout=5)
                viewers += open_streams(base, 1)
            answered, times = keeper_loads(base)
            for s in viewers:
                s.close()
        finally:
            stop(server)
        verdict = "ok" if answered == KEEPER_LOADS else "FAILED"
        print(
            f"viewers: {VIEWERS_AT_256} open pages, file limit 256: keeper's page "
            f"{answered}/{KEEPER_LOADS} answered, median {statistics.median(times) * 1000:.0f} ms  "
            f"{verdict}"
        )
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def ended_within(base: str, path: str, act: Callable[[], None], limit: float = 10) -> float:
    """Seconds from `act` to the stream at `path` saying `ended`."""
    ready, done = threading.Event(), threading.Event()
    acted = [0.0]
    ended = [float("inf")]

    def watch() -> None:
        with httpx2.stream("GET", base + path, timeout=limit + 5) as stream:
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    ready.set()
                if line.startswith("event: ended"):
                    ended[0] = time.monotonic()
                    break
        done.set()

    threading.Thread(target=watch, daemon=True).start()
    ready.wait(10)
    acted[0] = time.monotonic()
    act()
    done.wait(limit)
    return ended[0] - acted[0]


def restore(
    folder: Path, prepare: Callable[[Path], None], start: Start, stop: Callable[[object], None]
) -> None:
    db = folder / "restore.db"
    prepare(db)
    server, base = start(db)
    client = httpx2.Client(timeout=10, headers={"origin": base})
    keeper = f"{base}/s/1/keep?key={session_key(KEY, 1)}"
    try:
        backup = folder / "restore-backup.db"
        with sqlite3.connect(db) as source, sqlite3.connect(backup) as copy:
            source.backup(copy)
        for _ in range(2):  # two deals through the page after the backup
            fields = hidden(client.get(keeper).text, "hand")
            client.post(
                base + "/s/1/hand", data={**fields, "bid": "3", "by": "Ann", "result": "made"}
            )
        noticed = ended_within(base, "/s/1/events", lambda: shutil.copyfile(backup, db))
        before = rows(db)
        answer = client.post(base + "/s/1/pass", data={"key": session_key(KEY, 1)})
        written = answer.status_code == 303 or rows(db) != before
    finally:
        client.close()
        stop(server)
    verdict = "ok" if noticed <= 2 and not written else "FAILED"
    print(
        f"restore: `cp` of a backup under the running server noticed in {noticed:.2f} s, "
        f"a write after it {'saved' if written else 'refused'}  {verdict}"
    )

    moved = folder / "moved.db"
    prepare(moved)
    server, base = start(moved)
    try:
        took = ended_within(base, "/events", lambda: os.replace(moved, folder / "elsewhere.db"))
    finally:
        stop(server)
    verdict = "ok" if took <= 2 else "FAILED"
    print(f"moved: the sessions' stream ended {took:.2f} s after the file was moved  {verdict}")


def wrong_keys(db: Path, start: Start, stop: Callable[[object], None]) -> None:
    server, base = start(db)
    right = f"{base}/s/1/keep?key={session_key(KEY, 1)}"
    times: list[float] = []
    statuses: list[int] = []
    try:
        httpx2.get(right, timeout=10)

        def wrong(n: int) -> None:
            with contextlib.suppress(httpx2.HTTPError):
                httpx2.get(f"{base}/s/1/keep?key=guess{n}", timeout=30)

        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
            sent = [pool.submit(wrong, n) for n in range(WRONG_KEYS)]
            with httpx2.Client(timeout=10) as keeper:
                while not all(f.done() for f in sent) or len(times) < 30:
                    begun = time.perf_counter()
                    statuses.append(keeper.get(right).status_code)
                    times.append(time.perf_counter() - begun)
                    if len(times) >= 200:
                        break
    finally:
        stop(server)
    p95 = statistics.quantiles(times, n=20)[-1] * 1000
    refused = sum(s != 200 for s in statuses)
    verdict = "ok" if p95 < 100 and refused == 0 else "FAILED"
    print(
        f"wrong keys: {WRONG_KEYS} from the keeper's address: the right key {len(times)} loads, "
        f"p95 {p95:.0f} ms, refused {refused}  {verdict}"
    )


def attacks(
    folder: Path, prepare: Callable[[Path], None], start: Start, stop: Callable[[object], None]
) -> None:
    db = folder / "attacks.db"
    prepare(db)
    replays(db, start, stop)
    crowd(db, start, stop)
    restore(folder, prepare, start, stop)
    wrong_keys(db, start, stop)
