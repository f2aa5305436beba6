"""Reading a small file a person names (a rule file, a score sheet) without being fooled.

Opened without blocking and checked before a byte is read, so that a FIFO never hangs and
/dev/zero is never read into memory; read up to one byte past the limit, so that a file
too big is told from one just big enough.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class NotRegular(Exception):
    """The path names a folder, a FIFO or a device: nothing to read as a file."""


def read_small(path: str | Path, most: int) -> bytes:
    """At most `most` + 1 bytes of the regular file at `path`; OSError when it cannot be
    opened, NotRegular when it is not a regular file. The caller words either."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # before fdopen, which refuses a folder
        os.close(fd)
        raise NotRegular(str(path))
    with os.fdopen(fd, "rb") as file:
        return file.read(most + 1)
