"""Live pages: one watcher per watched session polls a cheap fingerprint and wakes viewers.

Polling the database (not a notification from our own writes) is what lets a deal typed
in a terminal, in `play` or at another table of the club's database appear on the page.
One watcher serves every open page of its session, so thirty phones cost one query each
quarter second, not thirty.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from anyio import to_thread

from napledger.errors import NapError

POLL_SECONDS = 0.25


@dataclass(frozen=True)
class Snapshot:
    fingerprint: tuple[Any, ...]
    html: str  # the board as the page shows it
    newest: int  # the id of the newest deal record it shows


class Watch:
    def __init__(
        self,
        fingerprint: Callable[[], tuple[Any, ...]],
        render: Callable[[], tuple[str, int]],
        interval: float = POLL_SECONDS,
    ) -> None:
        self.fingerprint = fingerprint
        self.render = render
        self.interval = interval
        self.snapshot: Snapshot | None = None
        self.changed = asyncio.Event()
        self.listeners = 0
        self.task: asyncio.Task[None] | None = None
        # Why this board will never change again (its database file was moved, replaced or
        # deleted): the open pages are told so and their streams end.
        self.ended: str | None = None

    async def refresh(self) -> None:
        mark = await to_thread.run_sync(self.fingerprint)
        if self.snapshot is None or mark != self.snapshot.fingerprint:
            html, newest = await to_thread.run_sync(self.render)
            self.snapshot = Snapshot(mark, html, newest)
            # Wake everyone waiting on this change; later waiters wait for the next one.
            woken, self.changed = self.changed, asyncio.Event()
            woken.set()

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.refresh()
            except NapError as error:  # what a write would be told too: it will not pass
                self.ended = str(error)
                self.changed.set()
                return
            except Exception:  # a busy database: keep the pages, try again
                await asyncio.sleep(self.interval)


class Hub:
    """The watchers of the sessions someone is looking at, started and stopped on demand."""

    def __init__(self, make: Callable[[int], Watch]) -> None:
        self.make = make
        self.watches: dict[int, Watch] = {}
        self.stopping = False

    @contextlib.asynccontextmanager
    async def watching(self, session: int) -> AsyncIterator[Watch]:
        watch = self.watches.get(session)
        if watch is None:
            watch = self.watches[session] = self.make(session)
        watch.listeners += 1
        try:
            # Even when the watcher runs: its snapshot may be a poll old, and a page that
            # just loaded must not first be shown a board older than itself.
            try:
                await watch.refresh()
            except Exception:  # a busy database: the running watcher's board will do
                if watch.snapshot is None:
                    raise
            if watch.task is None:
                watch.task = asyncio.create_task(watch.run())
            yield watch
        finally:
            watch.listeners -= 1
            if watch.listeners == 0:
                self.watches.pop(session, None)
                if watch.task is not None:
                    watch.task.cancel()

    def stop(self) -> None:
        """The server is stopping: every live page's stream ends now, not at a timeout."""
        self.stopping = True
        for watch in self.watches.values():
            watch.changed.set()

    async def close(self) -> None:
        for watch in list(self.watches.values()):
            if watch.task is not None:
                watch.task.cancel()
        self.watches.clear()
