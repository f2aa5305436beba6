"""Live streams that cannot crowd out the table.

Each open stream holds a connection (an open file) for as long as a page is open, so a
guest opening hundreds of them could use up the files the server has and lock out the
keeper's page. Here streams are counted: at most `total` at once and at most
`per_address` from one address (a club's phones may share one address behind NAT, so
this is generous), leaving at least half the connections for ordinary pages and writes.
A stream past either bound is answered at once with a hint to try again later, which the
page's EventSource follows by itself.

Every stream also has a lifetime (`LIFETIME`, spread a little so a room's pages do not
all come back at once): then it ends and the page reconnects, saying the last deal it saw,
so nothing is lost; a stream left open by a forgotten tab does not hold a file forever.

After a flood of streams has gone, the memory its objects took is handed back to the
system (`trim`), once: a moment after the flood's last stream has closed, when the
connections' own objects are freed too.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
from collections import Counter
from collections.abc import Callable

from napledger.allocator import malloc_trim
from napledger.web.bounded import REQUEST_SECONDS

LIFETIME = 15 * 60.0  # seconds a stream lives before the page reconnects
RETRY_MS = 5_000  # how long a page waits before it reconnects, told with every stream
CROWDED_RETRY_MS = 30_000  # a stream refused for the crowd tries again after this
FLOOD = 64  # streams after whose going the memory they took is handed back
TRIM_AFTER = 2.0  # seconds after a flood's last stream: its connection is gone too
# Seconds after that for a second pass: the flood's other connections (those refused a
# stream, kept alive after their answer) are closed by then, by their own deadline
# (bounded.REQUEST_SECONDS) or uvicorn's keep-alive timeout (5 s); they are cycles,
# freed by the collector only.
TRIM_AGAIN = REQUEST_SECONDS


class Crowded(Exception):
    """Too many streams, in all or from this address: come back later."""


class Crowd:
    def __init__(
        self, connections: int, lifetime: float = LIFETIME, trim: Callable[[], None] | None = None
    ) -> None:
        self.lifetime = lifetime
        self.trim = trim or trim_memory
        # Half the connections at most for streams; one address at most half of those.
        self.total = max(4, connections // 2)
        self.per_address = max(2, self.total // 2)
        self.open: Counter[str] = Counter()
        self.count = 0
        self.peak = 0
        self.trimming: asyncio.TimerHandle | None = None

    def admit(self, address: str) -> float:
        """Holds one stream's place for `address` (until `leave`); its lifetime."""
        if self.count >= self.total or self.open[address] >= self.per_address:
            raise Crowded
        self.count += 1
        self.open[address] += 1
        self.peak = max(self.peak, self.count)
        return self.lifetime * random.uniform(0.8, 1.0)

    def leave(self, address: str) -> None:
        self.count -= 1
        self.open[address] -= 1
        if not self.open[address]:
            del self.open[address]
        if self.peak >= FLOOD and self.count <= FLOOD // 4:  # a flood is going
            self._trim_later()

    def _trim_later(self) -> None:
        """The memory handed back TRIM_AFTER seconds after the flood's last stream closed:
        each close meanwhile puts it off again (under load a flood's 2,000 streams take
        seconds to close), so it runs once, when the whole flood has gone."""
        if self.trimming is not None:
            self.trimming.cancel()
        try:
            self.trimming = asyncio.get_running_loop().call_later(TRIM_AFTER, self._flood_gone)
        except RuntimeError:  # no loop: nothing is being torn down meanwhile
            self._flood_gone()

    def _flood_gone(self) -> None:
        self.trimming = None
        self.peak = self.count  # the next flood is counted from here
        self.trim()
        with contextlib.suppress(RuntimeError):  # no loop: nothing is left to close
            asyncio.get_running_loop().call_later(TRIM_AGAIN, self.trim)


def trim_memory() -> None:
    """Give the memory freed objects left behind back to the system.

    After a flood the server's objects are back to what they were idle (nothing of the
    streams is kept: tests/web/test_crowd.py), but the memory they took is not all given
    back by itself. The collector runs first, so that cycles left by the torn-down streams
    (exceptions and their frames) are freed, and the interpreter's free lists emptied.
    Then glibc's `malloc_trim(0)` hands the C heap's free pages back, those in the middle
    of the heap included, which `free` never does by itself (it only shrinks the top).
    It is sound: it only returns pages that hold no allocation, and costs some
    milliseconds, so it runs once a flood (and once more when the flood's last
    connections have closed: TRIM_AGAIN), not on every close. Where the C library is not
    glibc (macOS, musl, Windows) there is no such function and nothing is done.
    The server runs on the C library's allocator for this (`napledger.allocator`):
    CPython's own keeps an arena of 1 MB while any object in it lives."""
    gc.collect()
    trim = malloc_trim()
    if trim is not None:
        trim(0)
