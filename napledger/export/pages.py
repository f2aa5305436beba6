"""Printed pages: the paper, its margins, and how many columns and rows fit on one.

A club prints on A4 (US Letter where the locale's country uses it), with modest
margins. Fit-to-page scaling would make LibreOffice drop the breaks that keep a
block on one page, so sheets that need breaks are printed at a fixed scale chosen
here from their column widths, and the breaks are placed by counting points.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.worksheet import Worksheet

if TYPE_CHECKING:  # a private module of openpyxl, needed only for annotations
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet

# Countries whose paper is US Letter; everywhere else prints on A4.
LETTER_COUNTRIES = frozenset({"US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "PR"})
_A4 = (595.0, 842.0)  # points, portrait
_LETTER = (612.0, 792.0)
_SIDE, _TOP, _HEADER = 0.5, 0.7, 0.3  # inches: margins, and the header's distance from the edge
_FIT = 0.96  # of the page's width or height: what LibreOffice draws is a little wider than sums
_LIBREOFFICE_WIDER = 1.3
LINE = 15.0  # points: one row of 11-point text


def letter_paper(environ: os._Environ[str] | dict[str, str] = os.environ) -> bool:
    """Whether the locale (LC_ALL, LC_PAPER, LANG: the first set) is of a Letter country."""
    for key in ("LC_ALL", "LC_PAPER", "LANG"):
        value = environ.get(key)
        if value:
            country = value.split(".")[0].partition("_")[2][:2].upper()
            return country in LETTER_COUNTRIES
    return False


@dataclass(frozen=True)
class Page:
    """The printable area of one page at 100 %, in points."""

    width: float
    height: float

    def scale_to_fit(self, width: float, most: int = 100, least: int = 50) -> int:
        """The largest whole-percent scale (at most ``most``) at which ``width`` fits."""
        return max(least, min(most, int(100 * self.width / width))) if width else most


def set_up(ws: WriteOnlyWorksheet, landscape: bool) -> Page:
    """The paper, its orientation and margins; returns the printable area."""
    letter = letter_paper()
    ws.page_setup.paperSize = Worksheet.PAPERSIZE_LETTER if letter else Worksheet.PAPERSIZE_A4
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.page_margins = PageMargins(
        left=_SIDE, right=_SIDE, top=_TOP, bottom=_TOP, header=_HEADER, footer=_HEADER
    )
    short, long = _LETTER if letter else _A4
    width, height = (long, short) if landscape else (short, long)
    return Page((width - 144 * _SIDE) * _FIT, (height - 144 * _TOP) * _FIT)


def column_points(width: float) -> float:
    """How wide a column of ``width`` characters prints, in points (at 100 %).

    Excel's rule (7 pixels a character and 5 of padding, at 96 per inch) with the
    30 % more that LibreOffice was measured to print with its stand-in for Calibri.
    """
    return int(width * 7 + 5) * 0.75 * _LIBREOFFICE_WIDER
