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

After a flood of streams has gone, the memory their buffers took is handed back to the
system (`trim`), so the server returns near its idle size.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
import random
from collections import Counter

LIFETIME = 15 * 60.0  # seconds a stream lives before the page reconnects
RETRY_MS = 5_000  # how long a page waits before it reconnects, told with every stream
CROWDED_RETRY_MS = 30_000  # a stream refused for the crowd tries again after this
FLOOD = 64  # streams after whose going the memory they took is handed back


class Crowded(Exception):
    """Too many streams, in all or from this address: come back later."""


class Crowd:
    def __init__(self, connections: int, lifetime: float = LIFETIME) -> None:
        self.lifetime = lifetime
        # Half the connections at most for streams; one address at most half of those.
        self.total = max(4, connections // 2)
        self.per_address = max(2, self.total // 2)
        self.open: Counter[str] = Counter()
        self.count = 0
        self.peak = 0

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
        if self.peak >= FLOOD and self.count <= FLOOD // 4:  # a flood has gone
            self.peak = self.count
            trim()


def trim() -> None:
    """Give the memory freed objects left behind back to the system: CPython's allocator
    keeps it otherwise (glibc's malloc_trim; elsewhere nothing is done)."""
    gc.collect()
    name = ctypes.util.find_library("c")
    if name is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(name).malloc_trim(0)
