"""The evening chart: each player's running money over all the exported sessions.

One chart per currency (money in different currencies does not add up), drawn from
the Balance sheet: x is the point of the evening (each session's start, its live
deals and its close), y the player's money so far, the pot (or box) as a line of its
own. A player's line starts when they first sit and stays level while they sit out:
their money stands. Sessions of one currency add up even at different chip values,
which is why the chart is in money, not chips.

The lines are told apart in grey too: every series has its own dash style and marker
shape as well as its colour. They are drawn as they are: straight segments between
points (a smoothed curve overshoots real totals). Each series takes its name from
the Balance sheet's header cell, so a name is shown exactly as typed even if it looks
like a formula.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from openpyxl.chart import LineChart, Reference, Series
from openpyxl.chart.data_source import StrRef
from openpyxl.chart.marker import Marker
from openpyxl.chart.series import SeriesLabel
from openpyxl.drawing.line import LineProperties
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.worksheet.pagebreak import Break

from napledger.core.words import _
from napledger.export.cells import CellMaker, xml_safe
from napledger.export.style import NOTE
from napledger.export.timeline import POT_SERIES, EveningSeries

if TYPE_CHECKING:  # a private module of openpyxl, needed only for annotations
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet

# Sized to fit a landscape A4 or Letter page inside its margins at 100 %. LibreOffice
# pages by whole columns: column A is as wide as the chart, so it is never split.
_WIDTH_CM, _HEIGHT_CM = 24.0, 15.0
_COLUMN_WIDTH = 128.0  # characters: about 24.3 cm
_ROWS_PER_PAGE = 32  # default rows are 0.53 cm: a spare row and 15 cm of chart, with room
_DEAL_COLUMN = 2
_LABELS = 40  # at most this many labels along the axis, so they stay readable
_MARKERS_UP_TO = 80  # points; past this, markers only clutter the line (dashes remain)
_MARKER_SIZE = 6
# Told apart without colour: no two series share a dash style or a marker shape.
DASHES = ("solid", "dash", "sysDot", "lgDash", "dashDot", "lgDashDot", "sysDash", "sysDashDot")
MARKERS = ("circle", "square", "triangle", "diamond", "x", "star", "plus", "dash", "dot")
_POT_COLOUR = "404040"  # the pot: dark grey, drawn thicker than the players' lines


def add_charts(
    chart_ws: WriteOnlyWorksheet, data_ws: WriteOnlyWorksheet, evenings: Sequence[EveningSeries]
) -> int:
    """Anchor one evening chart per currency, a page each; returns how many."""
    chart_ws.column_dimensions["A"].width = _COLUMN_WIDTH
    cells = CellMaker(chart_ws)
    # A chart without series is a file Excel asks to repair; one point is no line.
    drawn = [e for e in evenings if len(e.columns) > 1 and e.points > 1]
    if not drawn:
        chart_ws.append([cells.text(_("No deals to draw."), font=NOTE)])
        return 0
    for added, series in enumerate(drawn):
        if added:
            chart_ws.row_breaks.append(Break(id=added * _ROWS_PER_PAGE))
        # One spare row after the break: Excel puts a break above its row, LibreOffice
        # below it, and either way the chart starts on its own page.
        top = 1 + added * _ROWS_PER_PAGE + (1 if added else 0)
        chart_ws.add_chart(_evening_chart(data_ws, series, len(drawn) > 1), f"A{top}")
    return len(drawn)


def _evening_chart(data_ws: WriteOnlyWorksheet, evening: EveningSeries, many: bool) -> LineChart:
    chart = LineChart()
    currency = f" ({evening.currency})" if many and evening.currency else ""
    chart.title = xml_safe(_("Running money over the evening") + currency)
    chart.x_axis.title = _("Deal (each session from its start to its close)")
    chart.width, chart.height = _WIDTH_CM, _HEIGHT_CM
    # openpyxl 3.1 leaves <c:delete> out, and Excel then hides both axes.
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.x_axis.axPos = "b"  # openpyxl puts the deal axis on the left by default
    chart.x_axis.tickLblPos = "low"  # along the bottom, not across the plot at zero
    points = evening.points
    skip = max(1, math.ceil(points / _LABELS))
    chart.x_axis.tickLblSkip = skip
    chart.x_axis.tickMarkSkip = skip
    chart.y_axis.number_format = evening.money
    chart.display_blanks = "gap"  # nothing before a player first sits
    rows = {"min_row": evening.first_row, "max_row": evening.last_row}
    sheet = quote_sheetname(data_ws.title)
    for index, (name, column) in enumerate(evening.columns.items()):
        values = Reference(data_ws, min_col=column, max_col=column, **rows)
        series = Series(values)
        letter = get_column_letter(column)
        series.tx = SeriesLabel(strRef=StrRef(f"{sheet}!${letter}$1"))
        series.smooth = False
        line = LineProperties(prstDash=DASHES[index % len(DASHES)], w=19050)  # 1.5 pt
        if name == POT_SERIES:
            line.w = 31750  # 2.5 pt
            line.solidFill = _POT_COLOUR
        series.graphicalProperties.line = line
        # Markers named outright: LibreOffice draws none for a line series by default.
        symbol = MARKERS[index % len(MARKERS)] if points <= _MARKERS_UP_TO else "none"
        series.marker = Marker(symbol=symbol, size=_MARKER_SIZE)
        chart.series.append(series)
    chart.set_categories(Reference(data_ws, min_col=_DEAL_COLUMN, max_col=_DEAL_COLUMN, **rows))
    return chart
