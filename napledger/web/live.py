"""Live pages: one watcher per watched session, woken when the database may have changed.

Nothing polls a session. A write the server makes wakes its session's watcher directly
after the commit; a write from any other process (a terminal's `hand`, `play`, another
table of the club's database) is heard by one listening thread for the whole server,
through a question that reads no session (`napledger.service.watch.Changes`: SQLite's data
version, PostgreSQL's NOTIFY). A woken watcher checks its session's fingerprint, and only
if it moved brings its kept history up to date and renders the board once for every
open page. Each page is then sent the board and the deals it has not seen yet, from what
the watcher holds, without a query of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from bisect import bisect_right
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from anyio import to_thread

from napledger.core.errors import NapError
from napledger.service.watch import Changes

# How often a watcher looks by itself when nothing can tell it of changes (a database
# not made yet when the server started), and when something can: now and then all the
# same, should a notification ever be lost.
POLL_SECONDS = 0.25
UNTOLD_SECONDS = 5.0
LISTEN_SECONDS = 0.5  # how soon the listening thread notices that the server stops

T = TypeVar("T")

# Every revision of the session's deals: (record id, "N" or "N.revision"), by id.
Revisions = Sequence[tuple[int, str]]


@dataclass(frozen=True)
class Snapshot:
    fingerprint: tuple[Any, ...]
    html: str  # the board as the page shows it
    newest: int  # the id of the newest deal record it shows
    revisions: Revisions = ()


class Watch:
    def __init__(
        self,
        fingerprint: Callable[[], tuple[Any, ...]],
        render: Callable[[tuple[Any, ...]], tuple[str, int, Revisions]],
        interval: float | None = None,
    ) -> None:
        self.fingerprint = fingerprint
        self.render = render
        self.interval = POLL_SECONDS if interval is None else interval
        self.snapshot: Snapshot | None = None
        self.changed = asyncio.Event()
        self.wake = asyncio.Event()  # something may have changed: look
        # One look at a time: the render keeps the session's history between looks.
        self.looking = asyncio.Lock()
        self.listeners = 0
        self.task: asyncio.Task[None] | None = None
        # Why this board will never change again (its database file was moved, replaced or
        # deleted): the open pages are told so and their streams end.
        self.ended: str | None = None

    async def refresh(self) -> None:
        async with self.looking:
            mark = await to_thread.run_sync(self.fingerprint)
            if self.snapshot is None or mark != self.snapshot.fingerprint:
                # Drawn as of the mark just read: a list's rows are drawn from it.
                html, newest, revisions = await to_thread.run_sync(self.render, mark)
                self.snapshot = Snapshot(mark, html, newest, revisions)
                # Wake everyone waiting on this change; later waiters wait for the next one.
                woken, self.changed = self.changed, asyncio.Event()
                woken.set()

    def arrived(self, seen: int) -> list[tuple[int, str]]:
        """The revisions in the snapshot recorded after the one with id `seen`."""
        revisions = self.snapshot.revisions if self.snapshot else ()
        return list(revisions[bisect_right(revisions, seen, key=lambda r: r[0]) :])

    async def run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.interval)
            self.wake.clear()  # a wake during the look below makes another look
            try:
                await self.refresh()
            except NapError as error:  # what a write would be told too: it will not pass
                self.ended = str(error)
                self.changed.set()
                return
            except Exception:  # a busy database: keep the pages, try again
                await asyncio.sleep(POLL_SECONDS)
                self.wake.set()


class Rows(Generic[T]):
    """The rows of a live list (one per session), each drawn again only when its own mark
    moved: a deal at one table redraws that table's row, not every session's scoreboard,
    and once for every list page that shows it (shared by their watchers; thread-safe).

    `marks` says each row's mark now, cheaply (no row drawn); `draw` draws the rows named.
    """

    def __init__(
        self,
        marks: Callable[[], Mapping[int, object]],
        draw: Callable[[Collection[int]], Mapping[int, T]],
    ) -> None:
        self.marks = marks
        self.draw = draw
        self.drawn: dict[int, tuple[object, T]] = {}  # each row, and the mark it was drawn at
        self.lock = threading.Lock()

    def fingerprint(self) -> tuple[Any, ...]:
        """Every row's mark: a list's watcher looks at this, and draws only when it moved."""
        return tuple(sorted(self.marks().items()))

    def rows(self, fingerprint: tuple[Any, ...]) -> list[T]:
        """The rows as `fingerprint` (which this list's watcher read) says, newest first;
        only the moved are drawn. Each watcher passes its own: two lists read their marks
        at moments apart, and one's older marks must never be drawn under the other's."""
        marks = dict(fingerprint)
        with self.lock:
            moved = [key for key, mark in marks.items() if self.drawn.get(key, (None,))[0] != mark]
            if moved:
                fresh = self.draw(moved)
                self.drawn.update((key, (marks[key], fresh[key])) for key in moved)
            for gone in self.drawn.keys() - marks.keys():
                del self.drawn[gone]
            return [self.drawn[key][1] for key in sorted(marks, reverse=True)]


class Hub:
    """The watchers of the sessions someone is looking at, started and stopped on demand,
    and the one thread that listens for changes made by other processes."""

    def __init__(
        self,
        make: Callable[[int, str], Watch],
        changes: Callable[[], Changes] | None = None,
        check: Callable[[], None] | None = None,
    ) -> None:
        self.make = make
        # Asked by the listening thread after each wait: a NapError says the database is
        # no longer the one opened (another ledger, an older copy), and every page looks.
        self.check = check
        # One watcher per session and language: a board is drawn once for all who read it
        # in the same language.
        self.watches: dict[tuple[int, str], Watch] = {}
        self.stopping = False
        self.changes = changes
        self.listener: threading.Thread | None = None
        self.starting = False
        self.quiet = threading.Event()  # set: the listening thread ends
        self.loop: asyncio.AbstractEventLoop | None = None

    def watching(self, session: int, lang: str = "en") -> Watching:
        """`async with hub.watching(n, lang) as watch`: the watcher of session `n`, shared
        with every page that reads it in `lang`, started for the first and stopped after
        the last."""
        return Watching(self, session, lang)

    async def join(self, key: tuple[int, str]) -> Watch:
        self.loop = asyncio.get_running_loop()
        await self._listen()
        watch = self.watches.get(key)
        if watch is None:
            watch = self.watches[key] = self.make(*key)
            if self.listener is not None:
                watch.interval = UNTOLD_SECONDS
        watch.listeners += 1
        try:
            # Even when the watcher runs: its snapshot may be a moment old, and a page that
            # just loaded must not first be shown a board older than itself.
            try:
                await watch.refresh()
            except Exception:  # a busy database: the running watcher's board will do
                if watch.snapshot is None:
                    raise
        except BaseException:
            self.leave(key, watch)
            raise
        if watch.task is None:
            watch.task = asyncio.create_task(watch.run())
        return watch

    def leave(self, key: tuple[int, str], watch: Watch) -> None:
        watch.listeners -= 1
        if watch.listeners == 0:
            if self.watches.get(key) is watch:
                del self.watches[key]
            if watch.task is not None:
                watch.task.cancel()

    def written(self, session: int) -> None:
        """The server has just committed a change to `session` (from any thread): its
        pages are woken now, not when the listening thread hears of it."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._wake, session)

    def _wake(self, session: int | None = None) -> None:
        for (number, _lang), watch in self.watches.items():
            # Below 1: a list of sessions, which follows every session.
            if session is None or number == session or number < 1:
                watch.wake.set()

    async def _listen(self) -> None:
        """Start the listening thread, once something can be listened to."""
        if self.listener or self.starting or self.changes is None or self.quiet.is_set():
            return
        self.starting = True  # pages arriving meanwhile wait for nothing, and start no other
        try:
            changes = await to_thread.run_sync(self.changes)
        except NapError:  # no database yet, say: the watchers look for themselves
            return
        finally:
            self.starting = False
        self.listener = threading.Thread(
            target=self._hear, args=(changes,), name="napledger-changes", daemon=True
        )
        self.listener.start()
        for watch in self.watches.values():
            watch.interval = UNTOLD_SECONDS

    def _hear(self, changes: Changes) -> None:
        try:
            while not self.quiet.is_set():
                heard = changes.wait(LISTEN_SECONDS)
                if self.check is not None:
                    try:
                        self.check()
                    except NapError:
                        heard = True  # the watchers find out why, and their pages end
                if heard and self.loop is not None:
                    with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                        self.loop.call_soon_threadsafe(self._wake)
        finally:
            changes.close()

    def stop(self) -> None:
        """The server is stopping: every live page's stream ends now, not at a timeout."""
        self.stopping = True
        self.quiet.set()
        for watch in self.watches.values():
            watch.changed.set()

    async def close(self) -> None:
        self.quiet.set()
        for watch in list(self.watches.values()):
            if watch.task is not None:
                watch.task.cancel()
        self.watches.clear()
        if self.listener is not None:
            await to_thread.run_sync(self.listener.join, 2 * LISTEN_SECONDS)


class Watching:
    """One page's hold on a watcher. A class, not an async generator: when the server
    stops with streams open, the event loop closes every async generator it knows in no
    set order, and a generator-based context manager closed before the stream that holds
    it fails that stream's close with "generator didn't stop after athrow()"."""

    def __init__(self, hub: Hub, session: int, lang: str) -> None:
        self.hub = hub
        self.key = (session, lang)
        self.watch: Watch | None = None

    async def __aenter__(self) -> Watch:
        self.watch = await self.hub.join(self.key)
        return self.watch

    async def __aexit__(self, *exc: object) -> None:
        watch, self.watch = self.watch, None
        if watch is not None:  # let go once, however often the stream is closed
            self.hub.leave(self.key, watch)
