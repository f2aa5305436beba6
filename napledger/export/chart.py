"""Line charts of each player's running balance, drawn from the Balance sheet.

One chart per session, each on a printed page of its own: x is the deal number
(0 is the start, before the first deal; a voided deal number has no point), y
the player's running total in chips. Sessions get separate charts rather than
one joined line because chips from sessions with different chip values or
currencies do not add up, and deal numbers restart in each session.

The charts are drawn as they are: straight segments between deals (a smoothed
curve overshoots real totals), the deal numbers along the bottom, whatever the
totals, and nothing at all while a player was not at the table (a gap, not a
flat 0). Each series takes its name from the Balance sheet's header cell, so a
name is shown exactly as typed even if it looks like a formula.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from openpyxl.chart import LineChart, Reference, Series
from openpyxl.chart.data_source import StrRef
from openpyxl.chart.marker import DataPoint, Marker
from openpyxl.chart.series import SeriesLabel
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.worksheet.pagebreak import Break

from napledger.export.cells import CellMaker, clean_text, xml_safe
from napledger.export.history import BalanceBlock
from napledger.export.style import NOTE

if TYPE_CHECKING:  # a private module of openpyxl, needed only for annotations
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet

# Sized to fit a landscape A4 or Letter page inside the default margins at 100 %.
# LibreOffice pages by whole columns: column A is as wide as the chart, so a chart
# is never split across two pages.
_WIDTH_CM, _HEIGHT_CM = 22.0, 13.0
_COLUMN_WIDTH = 118.0  # characters: about 22.3 cm
_ROWS_PER_PAGE = 28  # default rows are 0.53 cm: a spare row and 13 cm of chart, with room
_DEAL_COLUMN = 2
_LABELS = 40  # at most this many deal numbers along the axis, so they stay readable
_MARKERS_UP_TO = 60  # points; past this, markers only clutter the line
_MARKER_SIZE = 6


def add_charts(
    chart_ws: WriteOnlyWorksheet, data_ws: WriteOnlyWorksheet, blocks: Sequence[BalanceBlock]
) -> int:
    """Anchor one chart per session with deals to draw, a page each; returns how many.

    A session with no deal that counts would get a chart of one point at 0 on a
    meaningless axis ("1, 1, 0"): a line at the top of the sheet names it instead.
    """
    chart_ws.column_dimensions["A"].width = _COLUMN_WIDTH
    cells = CellMaker(chart_ws)
    # A chart without series is a file Excel asks to repair: a session without players
    # gets no chart either.
    drawn = [b for b in blocks if b.columns and b.points > 1]
    empty = [b.session.name for b in blocks if b.columns and b.points == 1]
    if not drawn and not empty:
        chart_ws.append([cells.text("No session with players: nothing to draw.", font=NOTE)])
        return 0
    first = 1
    if empty:
        note = f"No chart for {', '.join(empty)}: no deals to draw."
        chart_ws.append([cells.text(clean_text(note), font=NOTE)])
        first = 3  # the note, a spare row, then the first chart
    for added, block in enumerate(drawn):
        if added:
            chart_ws.row_breaks.append(Break(id=first - 1 + added * _ROWS_PER_PAGE))
        # One spare row after the break: Excel puts a break above its row, LibreOffice
        # below it, and either way the chart starts on its own page.
        top = first + added * _ROWS_PER_PAGE + (1 if added else 0)
        chart_ws.add_chart(_balance_chart(data_ws, block), f"A{top}")
    return len(drawn)


def _balance_chart(data_ws: WriteOnlyWorksheet, block: BalanceBlock) -> LineChart:
    chart = LineChart()
    chart.title = xml_safe(f"Running balance: {block.session.name}")
    chart.y_axis.title = "Chips"
    chart.x_axis.title = "Deal"
    chart.width, chart.height = _WIDTH_CM, _HEIGHT_CM
    # openpyxl 3.1 leaves <c:delete> out, and Excel then hides both axes.
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.x_axis.axPos = "b"  # openpyxl puts the deal axis on the left by default
    chart.x_axis.tickLblPos = "low"  # along the bottom, not across the plot at zero
    points = block.points
    skip = max(1, math.ceil(points / _LABELS))
    chart.x_axis.tickLblSkip = skip
    chart.x_axis.tickMarkSkip = skip
    chart.y_axis.number_format = "#,##0"
    chart.display_blanks = "gap"
    rows = {"min_row": block.first_row, "max_row": block.last_row}
    sheet = quote_sheetname(data_ws.title)
    for player, column in block.columns.items():
        values = Reference(data_ws, min_col=column, max_col=column, **rows)
        series = Series(values)
        letter = get_column_letter(column)
        series.tx = SeriesLabel(strRef=StrRef(f"{sheet}!${letter}$1"))
        series.smooth = False
        # Markers named outright: LibreOffice draws none for a line series by default.
        if points <= _MARKERS_UP_TO:
            series.marker = _marker()
        else:
            series.marker = Marker(symbol="none")
            # A point with a gap on both sides (one deal sat in) has no line to show it.
            series.dPt = [
                DataPoint(idx=i, marker=_marker()) for i in block.isolated.get(player, ())
            ]
        chart.series.append(series)
    chart.set_categories(Reference(data_ws, min_col=_DEAL_COLUMN, max_col=_DEAL_COLUMN, **rows))
    return chart


def _marker() -> Marker:
    return Marker(symbol="circle", size=_MARKER_SIZE)
