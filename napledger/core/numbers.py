"""Numbers as a person types them: one rule for every command, option and short form.

A number is ASCII digits, `0` to `9`: no sign, no `_` separators, no other script's digits.
Python's int() and Decimal() would read `٣`, `３`, `𝟑` and `1_000` as numbers; taking
them in one place and refusing them in another is worse than refusing them everywhere.
"""

from __future__ import annotations

import re
from decimal import Decimal

from napledger.core.errors import NapError

MAX_DIGITS = 1000  # far beyond any count at a table; int() refuses past 4300 digits
WHOLE = re.compile(r"[0-9]+")
AMOUNT = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def is_whole(text: str) -> bool:
    """True for a whole number as typed (`5`), False for `٥`, `５`, `1_000` or `-5`."""
    text = text.strip()
    return len(text) <= MAX_DIGITS and WHOLE.fullmatch(text) is not None


def whole(text: str, what: str) -> int:
    """A count a person typed, or one clear refusal naming `what` it was for."""
    text = text.strip()
    if WHOLE.fullmatch(text) is None:
        raise NapError(f"{what} wants a whole number in digits 0-9, like 3, not {text[:40]!r}")
    if len(text) > MAX_DIGITS:
        raise NapError(f"{what} of {text[:20]}… is more than anyone counts to")
    return int(text)


def amount(text: str, what: str) -> Decimal:
    """An amount of money a person typed: `0.05`, `2`, `.5` (digits 0-9 and one point)."""
    text = text.strip()
    if AMOUNT.fullmatch(text) is None:
        raise NapError(f"{what} wants an amount of money like 0.05, not {text!r}")
    return Decimal(text)


def signed(chips: int) -> str:
    """Chips as every front end writes them: gains with +, losses with -, nothing as 0."""
    return f"+{chips}" if chips > 0 else f"-{-chips}" if chips < 0 else "0"
