"""One write-only worksheet: column widths, frozen header, rows, and Excel tables."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from openpyxl import Workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.filters import AutoFilter
from openpyxl.worksheet.table import Table, TableColumn, TableStyleInfo

from napledger.errors import NapError
from napledger.export.cells import CellMaker, clean_text

MONEY = "money"  # a column whose number format is the session's currency format
MAX_ROWS = 1_048_576  # Excel opens no sheet longer than this
_NONE = "(none)"
_MIN_WIDTH, _MAX_WIDTH = 6.0, 50.0
_FILTER_BUTTON = 3.0  # header cells of a table also hold the filter drop-down


@dataclass(frozen=True)
class Column:
    header: str
    fmt: str | None = None  # a number format, MONEY, or None for the default


class Sheet:
    """Appends rows to a write-only worksheet and turns runs of them into tables.

    Widths and frozen panes go at the top of the sheet's XML, so openpyxl needs
    them before the first row is appended.
    """

    def __init__(self, wb: Workbook, title: str, freeze: str = "A2") -> None:
        self.ws = wb.create_sheet(title)
        self.ws.freeze_panes = freeze
        self.cells = CellMaker(self.ws)
        self.rows = 0
        self._columns: Sequence[Column] = ()
        self._table: tuple[str, int, list[str]] | None = None

    def set_widths(self, widths: Iterable[float]) -> None:
        for index, width in enumerate(widths, 1):
            width = min(max(width, _MIN_WIDTH), _MAX_WIDTH)
            self.ws.column_dimensions[get_column_letter(index)].width = width

    def begin_table(self, name: str, columns: Sequence[Column]) -> None:
        headers = table_headers(c.header for c in columns)
        self.ws.append([self.cells.text(h) for h in headers])
        self.rows += 1
        self._columns = columns
        self._table = (name, self.rows, headers)

    def append(self, values: Sequence[object], *, money: str = "", muted: bool = False) -> None:
        if self.rows >= MAX_ROWS - 1:  # keep a row for the "(none)" or a closing table
            raise NapError(
                f"too many rows for Excel's {self.ws.title} sheet: export fewer sessions at once"
            )
        make = self.cells.make
        row = [
            make(value, money if column.fmt == MONEY else column.fmt, muted=muted)
            for value, column in zip(values, self._columns, strict=True)
        ]
        self.ws.append(row)
        self.rows += 1

    def end_table(self) -> None:
        """Close the open table; an empty one gets a "(none)" row, as Excel wants a body."""
        assert self._table is not None, "end_table without begin_table"
        name, header_row, headers = self._table
        if self.rows == header_row:
            self.ws.append([self.cells.text(_NONE)])
            self.rows += 1
        ref = f"A{header_row}:{get_column_letter(len(headers))}{self.rows}"
        table = Table(
            displayName=name,
            ref=ref,
            tableColumns=[TableColumn(id=i, name=h) for i, h in enumerate(headers, 1)],
            autoFilter=AutoFilter(ref=ref),
            tableStyleInfo=TableStyleInfo(name="TableStyleLight9", showRowStripes=True),
        )
        with warnings.catch_warnings():
            # We did add the columns ourselves, from the header texts just written.
            warnings.filterwarnings("ignore", "In write-only mode you must add table columns")
            self.ws.add_table(table)
        self._table = None

    def blank(self) -> None:
        self.ws.append([])
        self.rows += 1


def table_headers(headers: Iterable[str]) -> list[str]:
    """Header texts Excel accepts as table column names: non-blank and unique ignoring case.

    Player names become headers, so two players "Al" and "AL", or one called
    "Session", must not make Excel "repair" the file.
    """
    result: list[str] = []
    seen: set[str] = set()
    for index, header in enumerate(headers, 1):
        base = clean_text(header) if header.strip() else f"Column{index}"
        name, n = base, 1
        while name.casefold() in seen:
            n += 1
            name = f"{base} ({n})"
        seen.add(name.casefold())
        result.append(name)
    return result


def width_of(value: object) -> float:
    """Roughly how many characters ``value`` takes on screen once formatted."""
    if value is None:
        return 0.0
    if isinstance(value, str):
        return float(max((len(line) for line in value.splitlines()), default=0))
    if isinstance(value, datetime):
        return 16.0
    if isinstance(value, bool):
        return 5.0
    if isinstance(value, int | Decimal):
        return len(f"{value:,}") + 5.0  # room for a currency symbol and decimals
    return float(len(str(value)))


def fit_widths(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> list[float]:
    widths = [width_of(h) + _FILTER_BUTTON for h in headers]
    for row in rows:
        for index, value in enumerate(row):
            widths[index] = max(widths[index], width_of(value) + 1)
    return widths
