"""An HTTP protocol with bounds: a slow client cannot hold a connection, nor crowd out the table.

uvicorn has no time limit for a request's headers and body, so a guest trickling one byte
every few seconds keeps a socket forever, and about a thousand of them use up the process's
open files (then every accept fails with a traceback). This subclass of uvicorn's public h11
protocol adds two bounds:

- a request must arrive whole (headers and body) within ``REQUEST_SECONDS`` of the
  connection opening or of the previous answer, else the connection is closed;
- at most ``connection_cap()`` connections are open; past it, the oldest connection still
  sending its request is closed to make room (an answered page or open live stream is never
  the one dropped), so the keeper's and viewers' new requests are answered however many
  slow ones arrive.

Each condition is logged at most once a minute, with a count (`napledger.web.quiet`), and
uvicorn's own answer to a request it cannot read carries the security headers too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from napledger.web.headers import HEADERS
from napledger.web.quiet import quieten

BACKLOG = 128  # the listen backlog, also how many connections asyncio accepts at once
REQUEST_SECONDS = 10.0
UNLIMITED_CONNECTIONS = 4096  # with no limit on open files, still a bound

log = logging.getLogger("uvicorn.error")


def raise_file_limit() -> None:
    """The soft limit on open files raised to the hard one, as far as the system allows:
    a laptop's default soft limit (often 256 or 1,024) is what the table's connections
    would otherwise be held to, while the hard one is much higher."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def soft_file_limit() -> int | None:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def backlog() -> int:
    """The listen backlog: at most `BACKLOG`, fewer where the files are few (asyncio
    accepts this many at once, before any is counted here)."""
    soft = soft_file_limit()
    return BACKLOG if soft is None else max(16, min(BACKLOG, soft // 8))


def connection_cap() -> int:
    """Connections kept open at most: the files, less those kept free of sockets (the
    database, its journal, templates, logs) and twice the backlog (accepted at once)."""
    soft = soft_file_limit()
    if soft is None:
        return UNLIMITED_CONNECTIONS
    return max(16, soft - 64 - 2 * backlog())


class Bounds:
    """Shared by every connection of one server: who is still sending."""

    def __init__(self, cap: int, request_seconds: float) -> None:
        self.cap = cap
        self.request_seconds = request_seconds
        self.sending: dict[BoundedH11Protocol, None] = {}  # oldest first

    def once(self, message: str) -> None:
        log.warning(message)  # once a minute at most, with a count (`quiet.OncePerMinute`)


def bounded_protocol(cap: int | None = None, request_seconds: float = REQUEST_SECONDS) -> type:
    """A protocol class for ``uvicorn.Config(http=...)`` with its own shared bounds."""
    quieten(log)
    bounds = Bounds(cap if cap is not None else connection_cap(), request_seconds)

    class Bounded(BoundedH11Protocol):
        napledger_bounds = bounds

    return Bounded


class BoundedH11Protocol(H11Protocol):
    napledger_bounds: Bounds

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.napledger_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        bounds = self.napledger_bounds
        if len(self.connections) > bounds.cap:
            bounds.once(
                f"more than {bounds.cap} connections open: closing the oldest that have "
                "not sent a whole request",
            )
            oldest = next(iter(bounds.sending), None)
            if oldest is None:  # every other connection is being answered: refuse this one
                transport.close()
                return
            oldest.napledger_drop()
        self.napledger_arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
            self.napledger_disarm()  # the whole request is in: the app answers in its time

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self.napledger_arm()  # the next request on this connection gets its own time

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request it cannot parse, with the security headers every
        other answer carries (it is written before any middleware could add them)."""
        event = h11.Response(
            status_code=400,
            headers=[
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"connection", b"close"),
                *HEADERS,
            ],
            reason=b"Bad Request",
        )
        for part in (event, h11.Data(data=msg.encode("ascii")), h11.EndOfMessage()):
            self.transport.write(self.conn.send(part) or b"")
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.napledger_disarm()
        super().connection_lost(exc)

    def napledger_arm(self) -> None:
        self.napledger_disarm()
        self.napledger_bounds.sending[self] = None
        self.napledger_deadline = asyncio.get_running_loop().call_later(
            self.napledger_bounds.request_seconds, self.napledger_too_slow
        )

    def napledger_disarm(self) -> None:
        self.napledger_bounds.sending.pop(self, None)
        if self.napledger_deadline is not None:
            self.napledger_deadline.cancel()
            self.napledger_deadline = None

    def napledger_too_slow(self) -> None:
        self.napledger_bounds.once(
            f"closing connections that take over {self.napledger_bounds.request_seconds:g} s "
            "to send a request",
        )
        self.napledger_drop()

    def napledger_drop(self) -> None:
        self.napledger_disarm()
        self.transport.close()
