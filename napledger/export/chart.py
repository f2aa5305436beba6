"""Line charts of each player's running balance, drawn from the Balance sheet.

One chart per session, stacked down the Chart sheet: x is the deal number
(0 is the start, before the first deal; a voided deal number has no point), y
the player's running total in chips. Sessions get separate charts rather than
one joined line because chips from sessions with different chip values or
currencies do not add up, and deal numbers restart in each session.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from openpyxl.chart import LineChart, Reference, Series

from napledger.export.cells import clean_text, xml_safe
from napledger.export.history import BalanceBlock

if TYPE_CHECKING:  # a private module of openpyxl, needed only for annotations
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet

_WIDTH_CM, _HEIGHT_CM = 24.0, 12.0
_ROWS_PER_CHART = 25  # default rows are 0.53 cm: 12 cm of chart plus a gap
_DEAL_COLUMN = 2


def add_charts(
    chart_ws: WriteOnlyWorksheet, data_ws: WriteOnlyWorksheet, blocks: Sequence[BalanceBlock]
) -> int:
    """Anchor one chart per session that has players; returns how many were added."""
    added = 0
    for block in blocks:
        if not block.columns:
            continue  # a chart without series is a file Excel asks to repair
        chart = _balance_chart(data_ws, block)
        chart_ws.add_chart(chart, f"A{1 + added * _ROWS_PER_CHART}")
        added += 1
    return added


def _balance_chart(data_ws: WriteOnlyWorksheet, block: BalanceBlock) -> LineChart:
    session = block.session
    chart = LineChart()
    chart.title = xml_safe(f"Running balance — session {session.id}: {session.name}")
    chart.y_axis.title = "Chips"
    chart.x_axis.title = "Deal"
    chart.width, chart.height = _WIDTH_CM, _HEIGHT_CM
    # openpyxl 3.1 leaves <c:delete> out, and Excel then hides both axes.
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.x_axis.axPos = "b"  # openpyxl puts the deal axis on the left by default
    rows = {"min_row": block.first_row, "max_row": block.last_row}
    for player, column in block.columns.items():
        values = Reference(data_ws, min_col=column, max_col=column, **rows)
        # A series name is SpreadsheetML text (_xHHHH_ escapes apply); a title is not.
        chart.series.append(Series(values, title=clean_text(player)))
    chart.set_categories(Reference(data_ws, min_col=_DEAL_COLUMN, max_col=_DEAL_COLUMN, **rows))
    return chart
