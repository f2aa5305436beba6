"""Write sessions to one .xlsx workbook, all or nothing."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

from openpyxl import Workbook

from napledger.errors import NapError
from napledger.export.chart import add_charts
from napledger.export.data import SessionExport
from napledger.export.history import PROGRESS_EVERY, write_history
from napledger.export.sheet import Sheet
from napledger.export.summary import write_rules, write_summary

__all__ = ["PROGRESS_EVERY", "write_workbook"]


def write_workbook(
    sessions: Sequence[SessionExport],
    path: Path,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Write ``sessions`` to an Excel workbook at ``path``, replacing any file there.

    Sheets: Summary (sessions, final chips and money, settlement), Chart (one
    running-balance line chart per session), Deals (every revision of every deal,
    with each player's change and running total), Ledger (every transfer),
    Balance (the running totals the charts draw) and Rules (stakes and settings).

    ``progress(n)`` is called with the number of deals written since the previous
    call: every ``PROGRESS_EVERY`` deals and once more for the rest, so the calls
    add up to the number of deals of all sessions (a bar's total is
    ``sum(len(s.deals) for s in sessions)``). Packing the file at the end, after
    the last call, takes a further few seconds for a very long history.

    The workbook is built in a hidden temporary file beside ``path`` and moved
    into place only when complete, so ``path`` never holds a partial workbook.
    An operating-system error (folder missing or read-only, disk full) raises
    ``NapError`` with a one-line message; the temporary file is always removed.
    """
    path = Path(path)
    if path.is_dir():
        raise NapError(f"cannot write {path}: it is a folder")
    try:
        handle, temp = _create_beside(path)
    except OSError as exc:
        raise NapError(_cannot_write(path, exc)) from exc
    wb = Workbook(write_only=True)
    try:
        with handle:
            _fill(wb, sessions, progress)
            wb.save(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException as exc:
        _abandon(wb)
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError):
            raise NapError(_cannot_write(path, exc)) from exc
        raise


def _create_beside(path: Path) -> tuple[BinaryIO, Path]:
    """A new file in the target folder, so the final rename cannot cross filesystems.

    Opened with plain ``open`` rather than ``mkstemp`` so that the finished file
    gets the usual permissions (umask) instead of owner-only ones.
    """
    temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    return open(temp, "xb"), temp  # closed by the caller's with-block


def _cannot_write(path: Path, exc: OSError) -> str:
    return f"cannot write {path}: {exc.strerror or exc}"


def _fill(
    wb: Workbook, sessions: Sequence[SessionExport], progress: Callable[[int], None] | None
) -> None:
    wb.properties.creator = "napledger"
    # Sheets appear in creation order; each streams to its own temporary file,
    # so they can be filled in any order.
    summary = Sheet(wb, "Summary")
    chart_ws = wb.create_sheet("Chart")
    deals = Sheet(wb, "Deals", freeze="C2")
    ledger = Sheet(wb, "Ledger")
    balance = Sheet(wb, "Balance", freeze="C2")
    rules = Sheet(wb, "Rules")

    history = write_history(sessions, deals, ledger, balance, progress)
    write_summary(summary, sessions, history.live_deals)
    write_rules(rules, sessions)
    if not add_charts(chart_ws, balance.ws, history.blocks):
        chart_ws.append(["No session with players: nothing to draw."])


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
