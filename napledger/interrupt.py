"""Ctrl-C while the program starts: held, and let through once the command can answer it.

A Ctrl-C pressed while Python loads the command line's libraries would end the program
with a traceback from whatever module was being loaded; one pressed while `serve` starts
itself again on the C library's allocator (napledger/allocator.py) would kill the new
interpreter before it can answer. So the program holds SIGINT from its first line (the
signal is blocked: a Ctrl-C pressed meanwhile waits, it is not lost, and it waits across
`execve` too), and each command lets it through as it runs: every command as it is
invoked (napledger.cli.errors.NapCommand), `serve` inside its own `except
KeyboardInterrupt` (napledger.web.serve), so that a Ctrl-C at any moment of its start is
"Server stopped." and exit 0. Its own module, below both, like napledger/collector.py.

Where the system has no signal masks (Windows), nothing is held.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

_mask = getattr(signal, "pthread_sigmask", None)
_sigpending = getattr(signal, "sigpending", None)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Ctrl-C held while the program starts, until a command lets it through. Let through
    again at the end only when no Ctrl-C waits: one pressed as the program ends (after its
    command, or a `--help` that had nothing to stop) must not turn its exit into a
    traceback."""
    if _mask is None or _sigpending is None:
        yield
        return
    before = _mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if signal.SIGINT not in before and signal.SIGINT not in _sigpending():
            _mask(signal.SIG_UNBLOCK, {signal.SIGINT})


def let_through() -> None:
    """Ctrl-C answered from here on: one pressed while it was held is raised here, as
    KeyboardInterrupt, in the caller's own handler."""
    if _mask is not None:
        _mask(signal.SIG_UNBLOCK, {signal.SIGINT})
