"""The server's keys, and what happens to wrong ones.

`serve` holds one secret (made afresh, or the `--key` typed). Every other key is derived
from it with HMAC, so none is stored and the same `--key` gives the same links after a
restart (a printed QR code stays good):

- a session's key, in that session's scorekeeper link, writes that session only;
- the organiser's key opens the list of sessions with each one's scorekeeper link.

Wrong keys are counted per client address. The first few are answered at once (a mistyped
link); after that each further wrong try from the address waits its turn, one at a time,
longer and longer, and the count is logged at 5, 50 and 500; while an address already has
wrong tries waiting, more wrong ones from it are refused at once. A right key is never
delayed nor refused, whatever its address sent before: a laptop's or a club's NAT address
is shared by the keeper and by whoever guesses, and a guest must not lock the keeper out.
(Checking every key first lets no one guess faster: a key is 128 bits of HMAC.)
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

FREE_TRIES = 5  # wrong tries answered at once: a link cut short, a key mistyped
FIRST_DELAY = 0.5  # seconds, doubled with every wrong try after the free ones
LONGEST_DELAY = 8.0
QUEUED = 4  # wrong tries from one address waiting at once; more are refused unchecked
FORGET_AFTER = 15 * 60.0  # seconds of quiet after which an address starts afresh
ADDRESSES = 1024  # addresses remembered; the quietest is forgotten first
LOGGED_AT = (5, 50, 500)

log = logging.getLogger("uvicorn.error")


def derive(secret: str, purpose: str) -> str:
    digest = hmac.new(secret.encode(), purpose.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()


def session_key(secret: str, session: int) -> str:
    """The key in session `session`'s scorekeeper link: it writes that session only."""
    return derive(secret, f"session {session}")


def organiser_key(secret: str) -> str:
    """The organiser's key: the list of sessions with their scorekeeper links."""
    return derive(secret, "organiser")


def matches(given: str | None, expected: str) -> bool:
    """Compared in constant time, so the answer's timing tells nothing about the key."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


class TooManyTries(Exception):
    """This address already has wrong tries waiting: refused without checking the key."""


@dataclass
class Tries:
    count: int = 0
    last: float = 0.0
    free_at: float = 0.0  # when the next wrong try from the address may be answered
    waiting: int = 0


class WrongKeys:
    """Wrong keys per client address: counted, logged and answered ever more slowly."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.clock = clock
        self.sleep = sleep
        self.addresses: OrderedDict[str, Tries] = OrderedDict()  # quietest first

    async def check(self, address: str, given: str | None, expected: str) -> bool:
        """Whether `given` is the key: a right one at once; a wrong one only when its
        turn has come.

        A wrong one raises TooManyTries while the address already has `QUEUED` wrong
        tries waiting: sending many at once must not be a way around the wait, nor a way
        to hold many connections open.
        """
        if matches(given, expected):
            return True
        tries = self.count(address)
        if tries.waiting >= QUEUED:
            raise TooManyTries
        if tries.count > FREE_TRIES:
            now = tries.last
            delay = min(LONGEST_DELAY, FIRST_DELAY * 2 ** (tries.count - FREE_TRIES - 1))
            tries.free_at = max(now, tries.free_at) + delay
            tries.waiting += 1
            try:
                await self.sleep(tries.free_at - now)
            finally:
                tries.waiting -= 1
        return False

    def count(self, address: str) -> Tries:
        now = self.clock()
        tries = self.addresses.pop(address, None)
        if tries is None or now - tries.last > FORGET_AFTER:
            tries = Tries(free_at=now)
        self.addresses[address] = tries  # now the most recent
        while len(self.addresses) > ADDRESSES:
            self.addresses.popitem(last=False)
        tries.count += 1
        tries.last = now
        if tries.count in LOGGED_AT:
            slowed = "; its further tries are slowed" if tries.count == FREE_TRIES else ""
            log.warning("%d wrong keys from %s%s", tries.count, address, slowed)
        return tries
