"""One write-only worksheet: column widths, frozen header, rows, tables and page setup."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.filters import AutoFilter
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.table import Table, TableColumn, TableStyleInfo

from napledger.core.errors import NapError
from napledger.core.words import _
from napledger.export.cells import CellMaker, chips_format, clean_text, xml_safe
from napledger.export.pages import LINE, Page, column_points, set_up
from napledger.export.style import (
    FAMILY,
    HEADER,
    HEADER_FILL,
    HEADER_INDENT,
    HEADER_LEFT,
    HEADER_RIGHT,
    HEADING,
    INDENT,
    NOTE,
    RIGHT,
    TITLE,
)

MONEY = "money"  # a column whose number format is the session's currency format
SIGNED = "signed money"  # the same, a gain with its plus
MAX_ROWS = 1_048_576  # Excel opens no sheet longer than this
_NONE = "(none)"
_MIN_WIDTH, _MAX_WIDTH = 6.0, 50.0
_FILTER_BUTTON = 3.0  # header cells of a table also hold the filter drop-down
# Room beside a header's longest word: bold letters, the cell's own margins, and a
# little space from the next column's header.
_WORD_ROOM = 2.0
_INDENT_ROOM = 2.0  # an indent of one, as LibreOffice draws it


if TYPE_CHECKING:  # a private module of openpyxl, needed only for annotations
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet

_LINE_HEIGHT = 15.0  # points: one line of 11-point text
MOST_SCALE, LEAST_SCALE = 85, 60  # per cent: a sheet printed in pages side by side
_HEADER_FOOTER_MAX = 100  # characters of a name in a page header (Excel allows 255 in all)


@dataclass(frozen=True)
class Column:
    header: str  # the English header (marked for the catalog), or a text made already
    fmt: str | None = None  # a number format, MONEY, or None for the default
    numeric: bool = False  # holds numbers even without a format: its header sits right
    indent: bool = False  # text set in a little, clear of the numbers to its left
    translated: bool = True  # False: `header` is already what is shown (a player's name)

    @property
    def right(self) -> bool:
        return self.numeric or self.fmt is not None

    @property
    def shown(self) -> str:
        """The header in the language spoken."""
        return _(self.header) if self.translated else self.header


class Sheet:
    """Appends rows to a write-only worksheet and turns runs of them into tables.

    Widths and frozen panes go at the top of the sheet's XML, so openpyxl needs
    them before the first row is appended.
    """

    def __init__(self, wb: Workbook, title: str, freeze: str | None = "A2") -> None:
        self.ws = wb.create_sheet(title)
        self.ws.freeze_panes = freeze
        self.cells = CellMaker(self.ws)
        self._formats: list[str | None] = []
        self.rows = 0
        self._widths: list[float] = []
        self._columns: Sequence[Column] = ()
        self._table: tuple[str, int, list[str]] | None = None
        self._room = 0.0  # points a page holds at the sheet's scale; 0: no breaks kept
        self._used = 0.0  # points of the current page already used

    @property
    def columns(self) -> Sequence[Column]:
        """The columns of the header row written last."""
        return self._columns

    def set_widths(
        self,
        widths: Iterable[float],
        columns: Sequence[Column] = (),
        header_cap: float = _MAX_WIDTH,
    ) -> None:
        """Column widths in characters; each at least as wide as its header's longest word.

        A header longer than its column wraps at spaces, but a word longer than the
        column is broken mid-word ("Deale / r"), so ``columns`` widen where they need to,
        up to ``header_cap`` (past which a very long name is broken rather than widening
        three columns of numbers).
        """
        widths = list(widths)
        for index, column in enumerate(columns[: len(widths)]):
            # Only a name is capped: a word of the language ("Назначение") always fits.
            cap = _MAX_WIDTH if column.translated else header_cap
            widths[index] = max(widths[index], min(header_room(column.shown), cap))
            if column.indent:  # the indent takes room from the text ("replaced" touched "Dan")
                widths[index] += _INDENT_ROOM
        self._widths = [min(max(width, _MIN_WIDTH), _MAX_WIDTH) for width in widths]
        for index, width in enumerate(self._widths, 1):
            self.ws.column_dimensions[get_column_letter(index)].width = width

    def print_setup(
        self,
        header: str,
        *,
        repeat_first_row: bool = True,
        pages_wide: int = 1,
        pages_tall: int = 0,
        repeat_columns: str | None = None,
    ) -> None:
        """Landscape, as wide as the page, the header row on every page, name and page numbers.

        ``header`` (the evening's sessions) goes at the top left of every page, the
        sheet's name at the top right and "Page n of m" at the bottom. A sheet too wide
        to read on one page can take ``pages_wide`` pages side by side, each repeating
        ``repeat_columns`` (such as "A:B") and printed left to right before going down.
        """
        set_up(self.ws, landscape=True)
        setup = self.ws.page_setup
        self.ws.sheet_properties.pageSetUpPr.fitToPage = True
        setup.fitToWidth = pages_wide
        setup.fitToHeight = pages_tall  # 0: as many pages down as it takes
        if pages_wide > 1:
            setup.pageOrder = "overThenDown"
        if repeat_first_row:
            self.ws.print_title_rows = "1:1"
        if repeat_columns:
            self.ws.print_title_cols = repeat_columns
        page_header_footer(self.ws, header)

    def print_at_scale(
        self, header: str, *, landscape: bool, repeat_first_row: bool = False
    ) -> None:
        """Printed at the largest scale at which every column fits the page's width, with
        the page's height counted so that ``keep`` can start a block on a new page."""
        page = set_up(self.ws, landscape)
        scale = page.scale_to_fit(sum(column_points(w) for w in self._widths))
        self.ws.page_setup.scale = scale
        self._room = page.height * 100 / scale
        if repeat_first_row:
            self.ws.print_title_rows = "1:1"
        page_header_footer(self.ws, header)

    def print_by_groups(self, header: str, *, first: int, group: int, title_columns: int) -> None:
        """Pages side by side broken only between groups of ``group`` columns.

        The first ``first`` columns go on the first page, with as many groups as fit
        beside them; each later page repeats the header row and the first
        ``title_columns`` columns, then as many whole groups (a player's columns) as
        fit. Of the orientations and scales down to ``LEAST_SCALE``, the one printing
        the fewest pages is taken (the larger scale of two as good). Called once the
        rows are written: it counts them.
        """
        points = [column_points(w) for w in self._widths]
        best: tuple[int, int, bool, list[int]] | None = None
        for landscape in (False, True):
            page = set_up(self.ws, landscape)
            for scale in range(MOST_SCALE, LEAST_SCALE - 1, -5):
                breaks = _group_breaks(points, first, group, title_columns, page, scale)
                if breaks is None:
                    continue
                tall = math.ceil(self.rows * LINE * scale / 100 / page.height + 0.05)
                pages = (len(breaks) + 1) * tall
                if best is None or (pages, -scale) < (best[0], -best[1]):
                    best = (pages, scale, landscape, breaks)
        pages, scale, landscape, breaks = best or (0, LEAST_SCALE, False, [])
        set_up(self.ws, landscape)
        for column in breaks:
            self.ws.col_breaks.append(Break(id=column))
        self.ws.page_setup.scale = scale
        self.ws.page_setup.pageOrder = "overThenDown"
        self.ws.print_title_rows = "1:1"
        self.ws.print_title_cols = f"A:{get_column_letter(title_columns)}"
        page_header_footer(self.ws, header)

    def keep(self, lines: float) -> None:
        """Start a new page unless ``lines`` more rows of text fit on this one."""
        if self._room and self._used and self._used + lines * LINE > self._room:
            self.ws.row_breaks.append(Break(id=self.rows))
            self._used = 0.0

    def _grow(self, points: float = LINE) -> None:
        self._used += points
        if self._room and self._used > self._room:  # a block longer than a page: it runs on
            self._used -= self._room

    def header(self, columns: Sequence[Column], headers: Sequence[str] | None = None) -> None:
        """A header row: bold on a fill, the headers of numbers aligned right like them."""
        texts = headers or [clean_text(c.shown) for c in columns]
        cells = [
            self.cells.text(text, font=HEADER, align=_header_alignment(c))
            for text, c in zip(texts, columns, strict=True)
        ]
        for cell in cells:
            cell.fill = HEADER_FILL
        # A header longer than its column wraps: give the row the lines it needs (Excel
        # does not grow a row for wrapped text by itself).
        lines = max(
            (_lines(text, width) for text, width in zip(texts, self._widths, strict=False)),
            default=1,
        )
        if lines > 1:
            self.ws.row_dimensions[self.rows + 1].height = _LINE_HEIGHT * min(lines, 4)
        self.ws.append(cells)
        self.rows += 1
        self._grow(_LINE_HEIGHT * min(lines, 4))
        self._columns = columns
        # Chips in the language the workbook is written in (the sheets are made in it).
        self._formats = [chips_format(c.fmt) if c.fmt else None for c in columns]

    def line(self, text: str, font: Font = NOTE) -> None:
        """One line of text in the first column, free to run on over the empty cells."""
        self.ws.append([self.cells.text(clean_text(text), font=font)])
        self.rows += 1
        self._grow(max(LINE, (font.sz or 11) * 1.35))

    def title(self, text: str) -> None:
        self.line(text, TITLE)

    def heading(self, text: str) -> None:
        self.line(text, HEADING)

    def begin_table(self, name: str, columns: Sequence[Column]) -> None:
        headers = table_headers(c.shown for c in columns)
        self.header(columns, headers)
        self._table = (name, self.rows, headers)

    def append(
        self,
        values: Sequence[object],
        *,
        money: str = "",
        signed: str = "",
        muted: bool = False,
        font: Font | None = None,
    ) -> None:
        if self.rows >= MAX_ROWS - 1:  # keep a row for the "(none)" or a closing table
            raise NapError(
                _("too many rows for Excel's {sheet} sheet: export fewer sessions at once").format(
                    sheet=self.ws.title
                )
            )
        make = self.cells.make
        row = [
            make(
                value,
                money if fmt == MONEY else signed if fmt == SIGNED else fmt,
                muted=muted,
                font=font,
                align=_body_alignment(column, value),
            )
            for value, column, fmt in zip(values, self._columns, self._formats, strict=True)
        ]
        self.ws.append(row)
        self.rows += 1
        self._grow()

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
        self._grow()


def _group_breaks(
    points: Sequence[float], first: int, group: int, title_columns: int, page: Page, scale: int
) -> list[int] | None:
    """Where the column breaks go at ``scale``; None if the first columns do not fit."""
    room = page.width * 100 / scale
    fixed, title = sum(points[:first]), sum(points[:title_columns])
    if fixed > room:
        return None
    breaks, used = [], fixed
    for column in range(first, len(points), group):
        width = sum(points[column : column + group])
        if used + width > room:
            breaks.append(column)
            used = title
        used += width
    return breaks


def _header_alignment(column: Column) -> Alignment:
    if column.right:
        return HEADER_RIGHT
    # Set in like its text, so it does not run on from a right-aligned header beside it.
    return HEADER_INDENT if column.indent else HEADER_LEFT


def _body_alignment(column: Column, value: object) -> Alignment | None:
    if column.indent:
        return INDENT
    # A word in a column of numbers ("no tricks") sits where the numbers do.
    return RIGHT if column.right and isinstance(value, str) else None


def header_room(header: str) -> float:
    """The width a header's column needs so that wrapping never breaks one of its words."""
    return max((_bold_width(word) for word in header.split()), default=0) + _WORD_ROOM


# Letters a bold header draws much wider than a digit (the unit of a column's width):
# «Играющий» broke mid-word in a column its letter count fitted.
_WIDE = frozenset("mwMWшщжюмыфШЩЖЮМЫФДŁ")


def _bold_width(word: str) -> float:
    return sum(1.4 if c in _WIDE else 1.0 for c in word)


def _lines(text: str, width: float) -> int:
    """Lines ``text`` wraps to in a column ``width`` characters wide.

    Lines break at spaces; a word longer than the line is broken wherever it reaches
    the edge, as both programs do.
    """
    room = max(int(width) - 1, 1)
    lines, used = 1, 0
    for word in text.split():
        if used and used + 1 + len(word) > room:
            lines, used = lines + 1, 0
        used += len(word) + (1 if used else 0)
        while used > room:
            lines, used = lines + 1, used - room
    return lines


def page_header_footer(ws: WriteOnlyWorksheet, header: str) -> None:
    """``header`` top left, the sheet's name top right, "Page n of m" at the bottom."""
    # In header and footer text "&" starts a code (&P is the page number): double it.
    text = xml_safe(header)[:_HEADER_FOOTER_MAX].replace("&", "&&")
    for part, value in (
        (ws.oddHeader.left, text),
        (ws.oddHeader.right, "&A"),
        (ws.oddFooter.center, _("Page &P of &N")),
    ):
        part.text = value
        part.size = 9
        part.font = FAMILY


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
        return 17.0  # 2026-12-05 21:40; 05.12.2026, 21:40
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
