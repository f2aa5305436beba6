"""Numbers as a person types them: one rule for every command, option and short form.

A number is ASCII digits, `0` to `9`: no sign, no `_` separators, no other script's digits.
Python's int() and Decimal() would read `٣`, `３`, `𝟑` and `1_000` as numbers; taking
them in one place and refusing them in another is worse than refusing them everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from napledger.core.errors import NapError
from napledger.core.words import _, language

MAX_DIGITS = 1000  # far beyond any count at a table; int() refuses past 4300 digits
WHOLE = re.compile(r"[0-9]+")
AMOUNT = re.compile(r"(?:([0-9]+)\.?([0-9]*)|\.([0-9]+))(?:[eE]([+-]?[0-9]+))?")
# Places either side of the point an amount may have, checked on the text before Decimal
# sees it: `1e999999999` would overflow, `1e-999999999` take gigabytes to write out.
AMOUNT_DIGITS = 12


def is_whole(text: str) -> bool:
    """True for a whole number as typed (`5`), False for `٥`, `５`, `1_000` or `-5`."""
    text = text.strip()
    return len(text) <= MAX_DIGITS and WHOLE.fullmatch(text) is not None


def whole(text: str, what: str) -> int:
    """A count a person typed, or one clear refusal naming `what` it was for."""
    text = text.strip()
    if WHOLE.fullmatch(text) is None:
        raise NapError(
            _("{what} wants a whole number in digits 0-9, like 3, not '{text}'").format(
                what=what, text=text[:40]
            )
        )
    if len(text) > MAX_DIGITS:
        raise NapError(
            _("{what} of {text}… is more than anyone counts to").format(what=what, text=text[:20])
        )
    return int(text)


def amount(text: str, what: str) -> Decimal:
    """An amount of money a person typed: `0.05`, `2`, `.5` (digits 0-9 and one point);
    at a table whose language writes a decimal comma (ru, pl) also `0,05`, as every amount
    is printed there. (Elsewhere a comma may group thousands, so it is not read as a point.)"""
    text = text.strip()
    own = WRITINGS.get(language())
    if own is not None and own.decimal == "," and text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")
    found = AMOUNT.fullmatch(text)
    if found is None:
        raise NapError(
            _("{what} wants an amount of money like 0.05, not '{text}'").format(
                what=what, text=text[:40]
            )
        )
    whole_part, fraction, only_fraction, exponent = found.groups()
    digits = (whole_part or "") + (fraction or only_fraction or "")
    point = len(whole_part or "")  # where the point sits among `digits`
    huge = exponent is not None and len(exponent.lstrip("+-0")) > 6  # zero or not: too far
    shift = 0 if huge or exponent is None else int(exponent)
    significant = digits.lstrip("0")
    top = point - (len(digits) - len(significant)) + shift  # digits before the point
    if (huge and not exponent.startswith("-")) or (significant and top > AMOUNT_DIGITS):
        raise NapError(
            _("{what} of {text} is more than anyone plays for").format(what=what, text=text[:40])
        )
    if huge or len(digits.rstrip("0")) - point - shift > AMOUNT_DIGITS:
        raise NapError(
            _("{what} has more than {places} decimal places: '{text}'").format(
                what=what, places=AMOUNT_DIGITS, text=text[:40]
            )
        )
    return Decimal(text)


def signed(chips: int) -> str:
    """Chips as every front end writes them: gains with +, losses with -, nothing as 0
    (in the language spoken: `−1 234` in Russian)."""
    return written(f"+{chips}" if chips > 0 else f"-{-chips}" if chips < 0 else "0")


def held(chips: int) -> str:
    """Chips an account holds, the pot's as every front end writes them: a count, with no
    plus (`12`; `1 234` in Russian), a minus only for a pot owed chips."""
    return written(str(chips))


@dataclass(frozen=True)
class Writing:
    """How a language writes numbers on screen and in a workbook (CLDR's symbols, as Babel
    has them: tests/core/test_numbers.py compares), and the signs it writes currencies with,
    after the amount. A typographic minus, as Russian and Polish print a negative amount."""

    decimal: str
    group: str
    minus: str = "\u2212"
    signs: Mapping[str, str] = field(default_factory=dict)


# English writes numbers as napledger always has (0.80, -175.00, no separators): only the
# other languages pay anything for being written their way. A table of three languages,
# not Babel, whose import and locale data would cost a one-shot command ~80 ms.
WRITINGS = {
    "ru": Writing(
        ",", "\u00a0", signs={"RUB": "₽", "GBP": "£", "EUR": "€", "USD": "$", "UAH": "₴"}
    ),
    "pl": Writing(",", "\u00a0", signs={"PLN": "zł", "EUR": "€"}),
}


def written(text: str) -> str:
    """A number as napledger makes it (`-1234.50`, `+9`) in the language spoken:
    `−1 234,50` in Russian and Polish, as it is in English."""
    writing = WRITINGS.get(language())
    if writing is None:
        return text
    sign = text[:1] if text[:1] in "+-" else ""
    whole, point, places = text[len(sign) :].partition(".")
    if len(whole) > 3 and whole.isdigit():
        head = len(whole) % 3 or 3
        whole = writing.group.join(
            [whole[:head]] + [whole[i : i + 3] for i in range(head, len(whole), 3)]
        )
    sign = writing.minus if sign == "-" else sign
    return sign + whole + (writing.decimal + places if point else "")


def grouped(number: int) -> str:
    """A big count as the language writes it: `1,000,000,000`, `1 000 000 000`."""
    return f"{number:,}" if language() not in WRITINGS else written(str(number))


def with_currency(text: str, currency: str) -> str:
    """An amount already written (`written`) beside its currency: `0.05 GBP` in English,
    `12,50 zł` and `−1 234,50 ₽` where the language has a sign for it."""
    if not currency:
        return text
    writing = WRITINGS.get(language())
    if writing is None:
        return f"{text} {currency}"
    return f"{text}\u00a0{writing.signs.get(currency, currency)}"


def currency_sign(currency: str) -> str:
    """The currency as a column heading shows it: its code in English, ₽ in Russian."""
    writing = WRITINGS.get(language())
    return writing.signs.get(currency, currency) if writing else currency
