"""Excel export: plain data in (``data``), one .xlsx workbook out (``workbook``).

Deliberately imports nothing, so that building the plain data does not load openpyxl.
"""
