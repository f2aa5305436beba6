"""Why the system refused a file or an address, in the table's language.

An OSError's `strerror` is the C library's English ("No such file or directory"), whatever
language the table speaks. The reasons a person meets at a table (a rule file, the
database, a workbook, the server's port) are napledger's own words, their English the
same as the C library's; any other is said as the system says it.
"""

from __future__ import annotations

import errno

from napledger.core.words import N_, _

REASONS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EEXIST: N_("File exists"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EDQUOT: N_("Disk quota exceeded"),
    errno.EROFS: N_("Read-only file system"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.EADDRINUSE: N_("Address already in use"),
    errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
}


def os_reason(error: OSError) -> str:
    """The reason `error` gives, said in the language spoken where napledger knows it."""
    said = REASONS.get(error.errno) if error.errno is not None else None
    return _(said) if said else (error.strerror or str(error))
