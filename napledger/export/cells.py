"""Write-only cells: text that stays text, money as numbers, datetimes Excel can hold."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font

from napledger.core.money import money_text, places
from napledger.core.numbers import currency_sign, with_currency, written
from napledger.core.read.said import revision_suffix
from napledger.core.words import language
from napledger.export.style import MUTED

if TYPE_CHECKING:  # a private module of openpyxl, needed only for annotations
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet

DATETIME = "yyyy-mm-dd hh:mm"
# How Russian and Polish write a date and time (CLDR's short forms, as core/dates.py
# writes them in a sentence): 05.12.2026, 21:40 and 5.12.2026, 21:40.
LOCAL_DATETIMES = {"ru": 'dd.mm.yyyy", "hh:mm', "pl": 'd.mm.yyyy", "hh:mm'}
TIME = "hh:mm"
CHIPS = "#,##0"
CHANGE = "+#,##0;-#,##0;0"  # a gain with its plus, as the terminal writes it

# Excel treats text typed with these leading characters as a formula; the quote
# prefix makes it keep the text as text even after someone edits the cell.
_FORMULA_LEAD = ("=", "+", "-", "@")
# XML 1.0 cannot carry these; openpyxl refuses the control characters and the
# XML serializer chokes on lone surrogates, so either would abort the export.
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# Excel decodes _xHHHH_ in cell text as an escaped character, so "_x0041_" would
# show as "A"; escaping the underscore (_x005F_) keeps what the person typed.
_OOXML_ESCAPE = re.compile(r"_(x[0-9A-Fa-f]{4}_)")
_MAX_TEXT = 32767  # Excel's limit for one cell
# Text that openpyxl could take for something else (a formula, an error code) or that
# needs cleaning; any other text is written as it is, which is much faster.
_NEEDS_CARE = re.compile(r"^[=+\-@#]|[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]|_x")

# (symbol, symbol goes first) for currencies people are likely to play for.
_SYMBOLS = {
    "GBP": ("£", True),
    "USD": ("$", True),
    "EUR": ("€", True),
    "JPY": ("¥", True),
    "RUB": ("₽", False),
    "UAH": ("₴", False),
    "PLN": ("zł", False),
}


def xml_safe(value: str) -> str:
    """``value`` with what XML cannot carry replaced by U+FFFD."""
    return _ILLEGAL.sub("\ufffd", value)


def clean_text(value: str) -> str:
    """What to store in a cell so that Excel shows ``value``."""
    value = xml_safe(value)
    if "_x" in value:
        value = _OOXML_ESCAPE.sub(r"_x005F_\1", value)
    return value[:_MAX_TEXT]


def money_format(currency: str, chip_value: Decimal, *, signed: bool = False) -> str:
    """A number format showing the currency, with enough places for one chip's value.

    ``signed``: a gain shows its plus, as the terminal writes it (``+£0.30``, ``-£0.90``,
    ``£0.00``); the cell still holds the number.
    """
    shown = places(currency, chip_value)
    number = "#,##0" + ("." + "0" * shown if shown else "")
    lcid = _LCIDS.get(language())
    if lcid is not None:
        return _local_format(lcid, currency, number, signed)
    plain = _with_currency(currency, number)
    if not signed:
        return plain
    zero = _with_currency(currency, "0" + ("." + "0" * shown if shown else ""))
    return f"+{plain};-{plain};{zero}"


# The Windows language ids a number format names its language with ([$-419]): LibreOffice
# then writes the separators as that language does (1 234,50), and both write the sign of
# the currency after the amount, as Russian and Polish do; English keeps £0.65.
_LCIDS = {"ru": "419", "pl": "415"}


def _local_format(lcid: str, currency: str, number: str, signed: bool) -> str:
    code = currency.strip().upper()
    label = re.sub(r"[^\w ₽£€$¥₴]", "", currency_sign(code) if code else "").strip()
    unit = f' "{label}"' if label else ""
    plain = f"[$-{lcid}]{number}{unit}"
    if not signed:
        return plain
    zero = number.replace("#,##", "")
    return f'[$-{lcid}]+{number}{unit};[$-{lcid}]"\u2212"{number}{unit};[$-{lcid}]{zero}{unit}'


def chips_format(fmt: str) -> str:
    """`CHIPS` or `CHANGE` as the language writes chips, the way the terminal's `signed`
    and `held` do: `+5`/`-5` in English, `+5`/`−5` with `1 234` grouped in Russian and
    Polish (the language's id, as for money); any other format as it is."""
    lcid = _LCIDS.get(language())
    if lcid is None or fmt not in (CHIPS, CHANGE):
        return fmt
    lang = f"[$-{lcid}]"
    minus = f'{lang}"\u2212"#,##0'
    if fmt == CHIPS:
        return f"{lang}#,##0;{minus}"
    return f"{lang}+#,##0;{minus};{lang}0"


def _with_currency(currency: str, number: str) -> str:
    code = currency.strip().upper()
    if code in _SYMBOLS:
        symbol, first = _SYMBOLS[code]
        return f'"{symbol}"{number}' if first else f'{number} "{symbol}"'
    # The currency is typed by a person: keep only what is safe inside a quoted literal.
    label = re.sub(r"[^\w ]", "", currency).strip()
    return f'{number} "{label}"' if label else number


def money_label(amount: Decimal, currency: str, chip_value: Decimal) -> str:
    """An amount as text, written the way ``money_format`` shows it in a cell: £0.05."""
    text = money_text(abs(amount), places(currency, chip_value))
    sign = "-" if amount < 0 else ""
    code = currency.strip().upper()
    if language() in _LCIDS:
        return with_currency(written(sign + text), code)
    if code in _SYMBOLS:
        symbol, first = _SYMBOLS[code]
        return f"{sign}{symbol}{text}" if first else f"{sign}{text} {symbol}"
    return f"{sign}{text} {currency.strip()}".strip()


def excel_datetime(value: datetime) -> datetime:
    """Excel has no time zones: an aware datetime is shown in this machine's local time."""
    if value.tzinfo is not None:
        return value.astimezone().replace(tzinfo=None)
    return value


class Formula(str):
    """A formula the export writes itself (a check's SUM), never text a person typed."""


@dataclass(frozen=True, slots=True)
class DealNumber:
    """A deal's number in a cell, shown as its label (`5.2`, napledger.core.read.said) as
    in the terminal and on the page; the cell still holds the number 5, to sort by."""

    number: int
    revision: int

    @property
    def fmt(self) -> str | None:
        """The number format that writes the label: `0".2"`, or none for a first version."""
        suffix = revision_suffix(self.revision)
        return f'0"{suffix}"' if suffix else None


class CellMaker:
    """Turns Python values into cells of one write-only worksheet."""

    def __init__(self, ws: WriteOnlyWorksheet) -> None:
        self._ws = ws

    def make(
        self,
        value: object,
        fmt: str | None = None,
        *,
        muted: bool = False,
        font: Font | None = None,
        align: Alignment | None = None,
    ) -> object:
        """A cell (or a plain value openpyxl can write as it is) for ``value``."""
        if value is None:
            return None
        font = MUTED if muted else font
        if isinstance(value, Formula):
            return self.formula(value, fmt, font)
        if isinstance(value, DealNumber):
            fmt, value = value.fmt or fmt, value.number
        if isinstance(value, str):
            plain = font is None and align is None and len(value) <= _MAX_TEXT
            if plain and not _NEEDS_CARE.search(value):
                return value  # plain text: openpyxl stores it as text as it is
            return self.text(clean_text(value), font=font, align=align)
        if isinstance(value, datetime):
            return self._styled(excel_datetime(value), datetime_format(fmt), font, align)
        if isinstance(value, bool | int | Decimal):
            if fmt is None and font is None and align is None:
                return value
            return self._styled(value, fmt, font, align)
        raise TypeError(f"cannot write {type(value).__name__} to a workbook")

    def text(
        self, value: str, *, font: Font | None = None, align: Alignment | None = None
    ) -> WriteOnlyCell:
        """A text cell for already-cleaned ``value``, whatever it looks like."""
        cell = self._styled(value, None, font, align)
        # openpyxl guesses 'f' for "=..." and 'e' for "#N/A"; a name is neither.
        cell.data_type = "s"
        if value.startswith(_FORMULA_LEAD):
            cell.quotePrefix = True
        return cell

    def formula(self, text: str, fmt: str | None = None, font: Font | None = None) -> WriteOnlyCell:
        """A formula of our own making (never text a person typed), such as a check's SUM."""
        cell = self._styled(text, fmt, font, None)
        cell.data_type = "f"
        return cell

    def _styled(
        self, value: object, fmt: str | None, font: Font | None, align: Alignment | None
    ) -> WriteOnlyCell:
        cell = WriteOnlyCell(self._ws, value=value)
        if fmt is not None:
            cell.number_format = fmt
        if font is not None:
            cell.font = font
        if align is not None:
            cell.alignment = align
        return cell


def datetime_format(fmt: str | None = None) -> str:
    """A date and time's number format: the language's own where the column asks for
    napledger's (DATETIME), else the one asked for."""
    if fmt not in (None, DATETIME):
        return fmt
    return LOCAL_DATETIMES.get(language(), DATETIME)
