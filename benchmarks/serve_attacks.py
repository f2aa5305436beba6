"""`bench_serve.py --attacks`: what a guest at the door tries, each bounded, on 127.0.0.1.

* replays: every form of the keeper and the organiser posted again (ten times) after its
  answer; the rows added by the replays (deals, seats, closes, sessions) must be 0, and a
  deal form replayed after that deal's undo must not be answered "recorded".
* streams at 1,024 files: 800 open streams from one address while the keeper's page is
  loaded 20 times; every load answered. The server's memory idle, at its peak and after.
* a flood: 2,000 streams of the sessions' list at 4,096 files, three times; the server's
  memory idle, at its peak and after each flood, with the ratios: back within 1.15x idle
  (the server runs on the C library's allocator for it: napledger/allocator.py), and the
  last flood must leave no more than the earlier ones did (within a tenth of the most).
* viewers at 256 files: 15 viewers (page and stream each) and the keeper's page, 20 loads.
* restore: a backup copied over the file (`cp`, the same inode) under a running server,
  with an open stream: the stream ends with the reason within 2 s, and a write after it
  is refused.
* moved: the sessions' stream ends with the reason when the file is moved.
* wrong keys: 200 wrong keys sent from the keeper's own address (by another process, so
  the senders do not slow the measuring client) while the right key loads the keeper's
  page; the right key's 95th percentile under 100 ms, with the machine's load average.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import html
import multiprocessing
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
from typing import Any

import httpx2

from napledger.web.keys import organiser_key, session_key

KEY = "benchmark-secret"  # as bench_serve's servers are started with
REPLAYS = 10
STREAMS_AT_1024, VIEWERS_AT_256, KEEPER_LOADS = 800, 15, 20
FLOOD, FLOOD_FILES, FLOODS = 2000, 4096, 3
SETTLE = 60.0  # seconds at most for the server to close a flood's streams and settle
WRONG_KEYS = 200
# How long the server must rest with its memory still, once every connection has closed,
# to count as settled: longer than the waits before a flood's memory is handed back
# (crowd.TRIM_AFTER, then crowd.TRIM_AGAIN for the connections left).
QUIET = 12.0

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


def memory_mb(pid: int, field: str = "VmRSS") -> float:
    """The server's resident memory now (VmRSS), or at its peak so far (VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def warmed_idle(base: str, pid: int, path: str) -> float:
    """The server's memory once a page and a few streams have been served, each stream
    read up to its first event (their first costs, paid once, are not the flood's: the
    list's template compiled, the watcher's queries prepared)."""
    httpx2.get(base + "/s/1", timeout=5)
    idle_files = open_files(pid)
    for _ in range(4):
        with httpx2.stream("GET", base + path, timeout=10) as stream:
            next(line for line in stream.iter_lines() if line.startswith("data:"))
    return settled(pid, idle_files)


def open_files(pid: int) -> int:
    """How many files the server holds open: a connection is one."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def settled(pid: int, files: int, limit: float = SETTLE) -> float:
    """The server's memory once a flood is over: it holds no more files than `files`
    (every connection closed), and for QUIET seconds its event loop has rested and its
    memory held still (every stream torn down, which outlasts the connections, and the
    flood's memory handed back, `napledger.web.crowd`, which takes its own while).
    Waits on what the server does, for at most `limit` seconds, not for a fixed time."""
    ends = time.monotonic() + limit
    while open_files(pid) > files and time.monotonic() < ends:
        time.sleep(0.05)
    last, still = memory_mb(pid), time.monotonic()
    while time.monotonic() < ends and time.monotonic() - still < QUIET:
        rested = resting(pid)
        if not rested or abs(memory_mb(pid) - last) > 0.5:
            last, still = memory_mb(pid), time.monotonic()
    return memory_mb(pid)


def resting(pid: int, window: float = 0.5) -> bool:
    """Whether the server's event loop (its main thread) slept through `window` seconds,
    but for moments. Its state, not its CPU time: on a busy machine a thread with work to
    do waits its turn as runnable ("R"), using no CPU, where a resting one sleeps ("S")."""
    samples = running = 0
    ends = time.monotonic() + window
    while time.monotonic() < ends:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        samples += 1
        running += state == "R"
        time.sleep(0.005)
    return running <= samples // 10


def open_streams(base: str, n: int, path: str = "/s/1/events") -> list[socket.socket]:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    held = []
    for _ in range(n):
        s = socket.create_connection((host, int(port)), timeout=10)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        held.append(s)
    return held


def served(held: list[socket.socket]) -> None:
    """Until every stream in `held` has carried its first event (each one live at once)."""
    for s in held:
        seen = b""
        with contextlib.suppress(OSError):  # refused or reset: nothing more will come
            while b"data:" not in seen and (chunk := s.recv(65536)):
                seen += chunk


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
            idle = warmed_idle(base, pid, "/s/1/events")
            files = open_files(pid)
            held = open_streams(base, STREAMS_AT_1024)
            time.sleep(1)  # the server reads them in
            answered, times = keeper_loads(base)
            peak = memory_mb(pid, "VmHWM")
            for s in held:
                s.close()
            after = settled(pid, files)
        finally:
            stop(server)
        verdict = "ok" if answered == KEEPER_LOADS else "FAILED"
        print(
            f"streams: {STREAMS_AT_1024} from one address, file limit 1,024: keeper's page "
            f"{answered}/{KEEPER_LOADS} answered, median {statistics.median(times) * 1000:.0f} ms  "
            f"{verdict}"
        )
        print(
            f"  memory: idle {idle:.0f} MB, peak {peak:.0f} MB, after {after:.0f} MB "
            f"({after / idle:.2f}x idle)"
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


def flood(db: Path, start: Start, stop: Callable[[object], None]) -> None:
    """2,000 streams of the sessions' list at once, closed, three times: the memory."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, FLOOD + 512), hard))
    try:
        server, base = start(db, files=FLOOD_FILES)
        pid = server.pid  # type: ignore[attr-defined]
        try:
            idle = warmed_idle(base, pid, "/events")
            files = open_files(pid)
            peaks, afters = [], []
            for _ in range(FLOODS):
                held = open_streams(base, FLOOD, "/events")
                served(held)  # every stream open at once: the flood at its height
                for s in held:
                    s.close()
                afters.append(settled(pid, files))
                peaks.append(memory_mb(pid, "VmHWM"))
        finally:
            stop(server)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    first, last, before = afters[0], afters[-1], max(afters[:-1])
    near = "ok" if first <= 1.15 * idle else "OVER 1.15x"
    # What the allocator keeps after a flood varies by a tenth or two from one to the
    # next (which of its arenas a few survivors pin: ten floods in a row left 128-148 MB);
    # a leak would add every time, beyond what any flood before had left.
    grown = "ok" if last <= 1.1 * before else "GROWS"
    print(
        f"flood: {FLOOD:,} streams of the sessions' list, file limit {FLOOD_FILES:,}: memory "
        f"idle {idle:.0f} MB, peak {max(peaks):.0f} MB, after {first:.0f} MB: "
        f"{first / idle:.2f}x idle  {near}"
    )
    print(
        f"  after each of {FLOODS} floods {', '.join(f'{a:.0f}' for a in afters)} MB: the last "
        f"{last / before:.2f}x the most an earlier one left, {last / idle:.2f}x idle  {grown}"
    )


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


def send_wrong_keys(base: str, started: Any) -> None:
    """The guessing guest: 200 wrong keys, eight at a time (run in a process of its own)."""

    def wrong(n: int) -> None:
        with contextlib.suppress(httpx2.HTTPError):
            httpx2.get(f"{base}/s/1/keep?key=guess{n}", timeout=30)

    started.set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(wrong, range(WRONG_KEYS)))


def wrong_keys(db: Path, start: Start, stop: Callable[[object], None]) -> None:
    server, base = start(db)
    right = f"{base}/s/1/keep?key={session_key(KEY, 1)}"
    times: list[float] = []
    statuses: list[int] = []
    load = os.getloadavg()[0]
    try:
        httpx2.get(right, timeout=10)
        forked = multiprocessing.get_context("fork")
        started = forked.Event()
        guest = forked.Process(target=send_wrong_keys, args=(base, started), daemon=True)
        guest.start()
        started.wait(10)
        with httpx2.Client(timeout=10) as keeper:
            while guest.is_alive() or len(times) < 30:
                begun = time.perf_counter()
                statuses.append(keeper.get(right).status_code)
                times.append(time.perf_counter() - begun)
                if len(times) >= 200:
                    break
        guest.join(60)
        load = max(load, os.getloadavg()[0])
    finally:
        stop(server)
    p95 = statistics.quantiles(times, n=20)[-1] * 1000
    refused = sum(s != 200 for s in statuses)
    verdict = "ok" if p95 < 100 and refused == 0 else "FAILED"
    print(
        f"wrong keys: {WRONG_KEYS} from the keeper's address: the right key {len(times)} loads, "
        f"p95 {p95:.0f} ms (median {statistics.median(times) * 1000:.0f} ms), refused "
        f"{refused}; under 100 ms  {verdict} (load average {load:.2f} on {os.cpu_count()} cores)"
    )


def attacks(
    folder: Path, prepare: Callable[[Path], None], start: Start, stop: Callable[[object], None]
) -> None:
    db = folder / "attacks.db"
    prepare(db)
    replays(db, start, stop)
    crowd(db, start, stop)
    flood(db, start, stop)
    restore(folder, prepare, start, stop)
    wrong_keys(db, start, stop)
