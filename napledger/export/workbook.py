"""Write sessions to one .xlsx workbook, all or nothing."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import BinaryIO, Literal
from zipfile import ZIP_DEFLATED, ZipFile

from openpyxl import Workbook
from openpyxl.writer.excel import ExcelWriter

from napledger.core.errors import NapError
from napledger.core.read.report import SessionReport
from napledger.core.reasons import os_reason
from napledger.core.words import _
from napledger.export.chart import add_charts
from napledger.export.kept import Kept, write_kept
from napledger.export.pages import set_up
from napledger.export.sheet import Sheet, page_header_footer
from napledger.export.summary import evening_title, write_rules, write_summary
from napledger.export.timeline import PROGRESS_EVERY, write_timeline

__all__ = ["PROGRESS_EVERY", "TargetExists", "write_workbook"]


Exists = Literal["refuse", "replace", "rename"]


class TargetExists(NapError):
    """The workbook's path already names a file, and it was not to be replaced."""


def file_name(names: Sequence[str], day: date) -> str:
    """DATE-NAME.xlsx, as `export` and the page's download name a workbook: DATE the day
    the (first) session was played."""
    label = names[0] if len(names) == 1 else f"{len(names)}-sessions"
    # A name is the players' text: keep letters and digits of any script, nothing a path could use.
    slug = re.sub(r"[^\w]+", "-", label, flags=re.UNICODE).strip("-_")[:40] or "session"
    return f"{day:%Y-%m-%d}-{slug}.xlsx"


def played_on(sessions: Sequence[SessionReport]) -> date:
    """The day the first of `sessions` was played, in local time as the Summary shows it."""
    started = min(s.created for s in sessions)
    return (started.astimezone() if started.tzinfo else started).date()


def write_workbook(
    sessions: Sequence[SessionReport],
    path: Path,
    progress: Callable[[int], None] | None = None,
    *,
    exists: Exists = "refuse",
    kept: Kept | None = None,
) -> Path:
    """Write ``sessions`` to an Excel workbook at ``path``; returns the path written.

    Sheets: Summary (the evening's totals and one settlement, then each session),
    Chart (the evening's running money, a page per currency), Deals (every
    revision of every deal, money beside chips), Rules (stakes and settings, with
    what each does to the pot), and the data sheets Ledger (every transfer) and
    Balance (the running totals the charts draw).

    ``progress(n)`` is called with the number of deals written since the previous
    call: every ``PROGRESS_EVERY`` deals and once more for the rest, so the calls
    add up to the number of deals of all sessions (a bar's total is
    ``sum(s.records for s in sessions)``). Packing the file at the end, after
    the last call, takes a further few seconds for a very long history.

    A file already at ``path`` is never replaced by accident: ``exists`` says
    whether to refuse (``TargetExists``), replace it (keeping its permissions,
    so a read-only file stays read-only), or write beside it under the first
    free name ``NAME-2.xlsx``, ``NAME-3.xlsx``, ... A symbolic link is written
    through: the file it points to gets the workbook and the link stays.

    The workbook is built in a hidden temporary file beside the target and moved
    into place only when complete, so the target never holds a partial workbook;
    no check-then-write gap lets another writer's file be replaced either. An
    operating-system error (folder missing or read-only, disk full) raises
    ``NapError`` with a one-line message; the temporary file is always removed,
    and those left by a killed export are removed by the next one to that folder.

    ``kept`` (the sessions' records as the service gives them) goes in a sheet nobody
    sees, from which `import` makes the same sessions again (napledger/export/kept.py).
    """
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if target.is_dir():
        raise NapError(_cannot_write(path, _("it is a folder")))
    if exists == "refuse" and os.path.lexists(target):
        raise TargetExists(_("{path} already exists: give --force to replace it").format(path=path))
    _sweep_stale(target)
    try:
        handle, temp = _create_beside(target)
    except OSError as exc:
        raise NapError(_cannot_write(path, exc)) from exc
    wb = Workbook(write_only=True)
    try:
        with handle:
            _fill(wb, sessions, progress)
            if kept is not None:
                write_kept(wb, kept)
            _save(wb, handle)
            handle.flush()
            os.fsync(handle.fileno())
        written = _move_into_place(temp, target, exists)
    except BaseException as exc:
        _abandon(wb)
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError):
            raise NapError(_cannot_write(path, exc)) from exc
        raise
    return path if written == target else written


def _save(wb: Workbook, handle: BinaryIO) -> None:
    """What ``Workbook.save`` does, but with the zip archive closed however it ends.

    Left open after a failed write (a full disk), the archive would try again to
    finish itself when garbage-collected, after ``handle`` is closed, and Python
    would print an "Exception ignored in: ZipFile.__del__" traceback.
    """
    wb.properties.modified = datetime.now(UTC).replace(tzinfo=None)
    archive = ZipFile(handle, "w", ZIP_DEFLATED, allowZip64=True)
    try:
        ExcelWriter(wb, archive).save()  # closes the archive when all is written
    finally:
        with contextlib.suppress(Exception):  # the error being raised says it all
            archive.close()


def _move_into_place(temp: Path, target: Path, exists: Exists) -> Path:
    if exists == "replace":
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temp, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temp, target)
        return target
    candidates = [target]
    if exists == "rename":
        candidates += (
            target.with_name(f"{target.stem}-{n}{target.suffix}") for n in range(2, 1000)
        )
    for candidate in candidates:
        try:
            _link_no_clobber(temp, candidate)
        except FileExistsError:
            continue
        with contextlib.suppress(OSError):
            temp.unlink()
        return candidate
    raise TargetExists(f"{target} already exists: give --force to replace it")


def _link_no_clobber(temp: Path, target: Path) -> None:
    """Give ``temp`` the name ``target`` unless a file has it: one step, no race."""
    try:
        os.link(temp, target)
    except FileExistsError:
        raise
    except OSError as exc:
        # Some filesystems (FAT on a memory stick) have no hard links: check, then rename.
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "File exists", str(target)) from exc
        os.replace(temp, target)


def _create_beside(path: Path) -> tuple[BinaryIO, Path]:
    """A new file in the target folder, so the final rename cannot cross filesystems.

    Opened with plain ``open`` rather than ``mkstemp`` so that the finished file
    gets the usual permissions (umask) instead of owner-only ones. The name
    carries the writer's process id, so a later export can tell a temporary file
    whose writer was killed from one still being written.
    """
    temp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(6)}.tmp")
    return open(temp, "xb"), temp  # closed by the caller's with-block


def _sweep_stale(target: Path) -> None:
    """Remove temporary files beside ``target`` left by exports that were killed."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(\d+)-[0-9a-f]{{12}}\.tmp")
    with contextlib.suppress(OSError):
        for entry in os.scandir(target.parent):
            found = pattern.fullmatch(entry.name)
            if found and not _running(int(found.group(1))):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process, or not a pid we can ask about: leave it
    return True


def _cannot_write(path: Path, why: OSError | str) -> str:
    reason = os_reason(why) if isinstance(why, OSError) else why
    return _("cannot write {path}: {reason}").format(path=path, reason=reason)


def _fill(
    wb: Workbook, sessions: Sequence[SessionReport], progress: Callable[[int], None] | None
) -> None:
    wb.properties.creator = "napledger"
    # Sheets appear in creation order; each streams to its own temporary file,
    # so they can be filled in any order.
    summary = Sheet(wb, _("Summary"), freeze=None)
    chart_ws = wb.create_sheet(_("Chart"))
    deals = Sheet(wb, _("Deals"), freeze="C2")
    rules = Sheet(wb, _("Rules"), freeze=None)
    ledger = Sheet(wb, _("Ledger"))
    balance = Sheet(wb, _("Balance"), freeze="C2")

    title = evening_title(sessions)
    wb.properties.title = title
    wb.properties.subject = _("Nap evening report: totals, settlement, chart, deals and rules")
    for sheet in (ledger, balance):
        sheet.print_setup(title)
    set_up(chart_ws, landscape=True)  # no fit-to-page: it would drop the breaks
    page_header_footer(chart_ws, title)

    # Every payment, and the numbers behind the charts: data to check and to compute
    # with, not to print. Hidden sheets are not printed; one click shows them again.
    ledger.ws.sheet_state = "hidden"
    balance.ws.sheet_state = "hidden"

    written = write_timeline(sessions, deals, ledger, balance, progress, title)
    write_summary(summary, sessions, written, title)
    write_rules(rules, sessions, title)
    add_charts(chart_ws, balance.ws, written.evenings)


def _abandon(wb: Workbook) -> None:
    """Close the sheets of a workbook that will not be saved.

    A write-only sheet left half-written keeps a generator open on its temporary
    file; if the garbage collector closes the file first, the generator's
    clean-up fails later with an "exception ignored" far from here. openpyxl
    deletes the temporary files themselves when the interpreter exits.
    """
    for ws in wb.worksheets:
        if not ws.closed:
            with contextlib.suppress(Exception):
                ws.close()
