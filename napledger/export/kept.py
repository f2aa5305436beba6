"""The workbook's own records: what `import` makes the sessions again from.

A person reads the workbook's sheets; `import FILE.xlsx` reads a sheet nobody sees (very
hidden: Excel's and LibreOffice's menus do not list it; protected against edits), which
holds the language the workbook was written in and each session's whole history as the
service gives it (a JSON document, napledger/service/evenings.py), cut into cells of at
most `CHUNK` characters. The service hands the documents over as text: this layer never
reads a database. Then the visible sheets are checked against the sessions made again
(`first_difference`), so a total or a deal edited by hand is caught.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from openpyxl import Workbook, load_workbook

__all__ = ["KEPT_SHEET", "Kept", "first_difference", "read_kept", "write_kept"]

KEPT_SHEET = "napledger"  # the same in every language: it is read, not shown
MARK = "napledger records"
VERSION = 1
CHUNK = 30_000  # characters a cell holds (Excel's limit is 32,767)


@dataclass(frozen=True)
class Kept:
    """What the workbook keeps for `import`: its language, and each session's lines of
    JSON text (its head, then its events), read as they are written: a long history
    streams from the store into the sheet."""

    language: str
    sessions: Sequence[Iterable[str]]


def write_kept(wb: Workbook, kept: Kept) -> None:
    ws = wb.create_sheet(KEPT_SHEET)
    ws.sheet_state = "veryHidden"
    ws.protection.sheet = True  # no password: it stops a slip, not a person set on it
    ws.append([MARK, VERSION, kept.language])
    for index, lines in enumerate(kept.sessions):
        for line in lines:  # a line longer than a cell goes on in the rows below it
            for start in range(0, max(len(line), 1), CHUNK):
                ws.append([index, int(start > 0), line[start : start + CHUNK]])


def read_kept(path: Path) -> Kept | None:
    """The records a workbook napledger wrote keeps; None for any other workbook."""
    wb = load_workbook(path, read_only=True)
    try:
        if KEPT_SHEET not in wb.sheetnames:
            return None
        rows = wb[KEPT_SHEET].iter_rows(values_only=True)
        head = next(rows, None)
        if not head or head[0] != MARK or head[1] != VERSION:
            return None
        sessions: dict[int, list[str]] = {}
        for index, more, text in rows:
            lines = sessions.setdefault(int(index), [])
            if more and lines:
                lines[-1] += str(text or "")
            else:
                lines.append(str(text or ""))
        return Kept(str(head[2]), [sessions[i] for i in sorted(sessions)])
    finally:
        wb.close()


def _cells(path: Path) -> dict[str, dict[str, Any]]:
    """Every visible sheet's cells that hold something, by coordinate."""
    wb = load_workbook(path, read_only=True)
    try:
        out: dict[str, dict[str, Any]] = {}
        for ws in wb.worksheets:
            if ws.title == KEPT_SHEET:
                continue
            cells: dict[str, Any] = {}
            for row in ws.iter_rows():
                for cell in row:
                    value = getattr(cell, "value", None)
                    if value is not None and value != "":
                        cells[cell.coordinate] = value
            out[ws.title] = cells
        return out
    finally:
        wb.close()


def _timed(value: Any) -> bool:
    return isinstance(value, datetime | date | time)


def _order(cells: Iterable[str]) -> Iterator[str]:
    from openpyxl.utils.cell import coordinate_to_tuple

    return iter(sorted(cells, key=coordinate_to_tuple))


def first_difference(given: Path, made: Path) -> tuple[str, str, Any, Any] | None:
    """The first cell (sheet by sheet, row by row) where the workbook `given` differs from
    `made`, written afresh from the same sessions: (sheet, cell, what `given` says, what
    `made` says). Times are left aside (an import is made at another time)."""
    ours, theirs = _cells(given), _cells(made)
    for sheet in [*ours, *(s for s in theirs if s not in ours)]:
        a, b = ours.get(sheet, {}), theirs.get(sheet, {})
        for cell in _order({*a, *b}):
            said, made_ = a.get(cell), b.get(cell)
            if _timed(said) or _timed(made_):
                continue
            if said != made_:
                return sheet, cell, said, made_
    return None
