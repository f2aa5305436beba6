"""The server's memory allocator: the C library's, so that what a flood took is given back.

CPython's own small-object allocator (pymalloc) takes memory in 1 MB arenas and returns an
arena only when every object in it is gone. After a flood of a thousand live streams, a
few hundred objects that outlive the flood (asyncio's free list of future iterators, the
dead cursor references each `sqlite3` connection keeps until its 200th cursor, a few
strings) are scattered over the flood's arenas and keep a third of them: the server
stayed at 1.3-1.4 times its idle memory for good (issue #37). With `PYTHONMALLOC=malloc`
every object comes from the C library's malloc instead, whose free pages `malloc_trim`
hands back wherever they lie (`napledger.web.crowd.trim_memory`): 1.04 times idle after
each of three floods. It costs about a tenth more CPU a page (3.6-4.2 ms against
3.3-4.0 at 200 deals) and 3 MB more idle, which nobody at the table feels; a server that
keeps a flood's memory for the rest of the evening is felt on a small machine.

Python reads `PYTHONMALLOC` once, as the interpreter starts, so `serve` starts itself
again, once, with it set: the same interpreter, options and command line
(`sys.orig_argv`), before it opens or prints anything. A person who sets `PYTHONMALLOC`
themselves keeps their choice (`PYTHONMALLOC=pymalloc napledger serve` keeps CPython's).
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterator
from typing import cast

# Whether the napledger program (`napledger.start.main`) is running its command: only
# then may the process start itself again, never inside a test or a program that
# imports napledger, even one that ran `main` before.
_program = False


@contextlib.contextmanager
def program() -> Iterator[None]:
    """While the program runs its command: this process is `napledger` itself."""
    global _program
    _program = True
    try:
        yield
    finally:
        _program = False


def serve_on_malloc() -> None:
    """This process started again with `PYTHONMALLOC=malloc`, when it is the program and
    runs on CPython's allocator with glibc's `malloc_trim` there to give memory back.
    Otherwise (already on malloc, the person's own PYTHONMALLOC, no glibc, a frozen
    executable, an interpreter told to ignore the environment) nothing is done and the
    server runs as it is."""
    if not _program or "PYTHONMALLOC" in os.environ or getattr(sys, "frozen", False):
        return
    if sys.flags.ignore_environment:  # -E or -I: the new interpreter would not read it
        return
    if malloc_trim() is None:  # without it, malloc would keep the freed pages too
        return
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    try:
        os.execve(sys.executable, sys.orig_argv, {**os.environ, "PYTHONMALLOC": "malloc"})
    except OSError:  # not started again: the server runs on, giving back less after a flood
        return


@functools.cache
def malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, looked up once; None where the C library has none (macOS,
    musl, Windows). ctypes is imported here: only a server needs it, not every command."""
    import ctypes

    try:
        return cast(Callable[[int], int], ctypes.CDLL(None).malloc_trim)
    except (OSError, AttributeError, TypeError):  # not glibc; Windows has no CDLL(None)
        return None
