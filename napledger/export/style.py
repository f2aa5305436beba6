"""The workbook's look, spelled out cell by cell so LibreOffice draws what Excel does.

Excel's table styles (bold headers, banding) are not drawn by LibreOffice, and a
font that names only a colour falls back to the program's default face there, so
every font here names the family, and headers carry their own bold and fill.
"""

from __future__ import annotations

from openpyxl.styles import Alignment, Font, PatternFill

FAMILY = "Calibri"  # the default font of the workbook's own styles: one family throughout
GREY = "FF808080"

BODY = Font(name=FAMILY, size=11)
MUTED = Font(name=FAMILY, size=11, color=GREY)
HEADER = Font(name=FAMILY, size=11, bold=True)
HEADER_FILL = PatternFill(fill_type="solid", fgColor="FFDDE4EE")
TITLE = Font(name=FAMILY, size=16, bold=True)
HEADING = Font(name=FAMILY, size=13, bold=True)
NOTE = Font(name=FAMILY, size=10, italic=True, color="FF505050")
TOTAL = Font(name=FAMILY, size=11, bold=True)

RIGHT = Alignment(horizontal="right")
INDENT = Alignment(horizontal="left", indent=1)
# Headers wrap when longer than their column, and sit on the row's bottom line.
HEADER_LEFT = Alignment(horizontal="left", vertical="bottom", wrap_text=True)
HEADER_RIGHT = Alignment(horizontal="right", vertical="bottom", wrap_text=True)
HEADER_INDENT = Alignment(horizontal="left", vertical="bottom", wrap_text=True, indent=1)
