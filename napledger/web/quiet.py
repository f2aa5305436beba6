"""A log that stays readable under garbage: each kind of warning once a minute, with a count.

A stranger sending thousands of broken requests a second made uvicorn write one line for
each ("Invalid HTTP request received.": 13,595 lines in 10 s). Here a kind (one message
as written) is written the first time, then not again for a minute;
the next line of that kind says how many were left out meanwhile.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

PERIOD = 60.0  # seconds
KINDS = 256  # kinds remembered; the server's own messages are far fewer


class OncePerMinute(logging.Filter):
    def __init__(self, clock: Callable[[], float] = time.monotonic, period: float = PERIOD):
        super().__init__()
        self.clock = clock
        self.period = period
        self.kinds: dict[str, tuple[float, int]] = {}  # when last written, how many left out

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        kind = record.getMessage()  # "5 wrong keys from …" and "50 …" are two lines
        now = self.clock()
        written = self.kinds.get(kind)
        if written is not None and now - written[0] < self.period:
            self.kinds[kind] = (written[0], written[1] + 1)
            return False
        if len(self.kinds) >= KINDS and kind not in self.kinds:
            self.kinds.clear()
        self.kinds[kind] = (now, 0)
        if written is not None and written[1]:
            record.msg = f"{record.getMessage()} (and {written[1]} more like it since the last)"
            record.args = None
        return True


def quieten(logger: logging.Logger) -> None:
    """Once per server: every warning `logger` writes goes through one filter."""
    if not any(isinstance(f, OncePerMinute) for f in logger.filters):
        logger.addFilter(OncePerMinute())
