"""Money as people read it: a currency's usual places, or more when a chip is finer.

One rule for every front end, so `table`, every `--json` document and the workbook show
an amount alike (0.80 GBP everywhere for 16 chips of 0.05, never 0.8 in one of them).
"""

from __future__ import annotations

from decimal import Decimal

# Currencies without a minor unit; every other is shown with two places, like pence.
WHOLE_CURRENCIES = ("JPY", "KRW")
MAX_PLACES = 10


def chip_places(chip_value: Decimal) -> int:
    """The places one chip's value needs: 2 for 0.05, 0 for 5."""
    exponent = chip_value.normalize().as_tuple().exponent
    if not isinstance(exponent, int):  # NaN or infinity: nothing sensible to match
        return 0
    return min(max(0, -exponent), MAX_PLACES)


def places(currency: str, chip_value: Decimal) -> int:
    """The places money is shown with in a session of this currency and chip value."""
    chip = chip_places(chip_value)
    code = currency.strip().upper()
    if not code and chip == 0:
        return 0  # whole chips worth whole units of no currency: plain numbers
    return max(0 if code in WHOLE_CURRENCIES else 2, chip)


def money_text(amount: Decimal, places: int) -> str:
    """An amount as a decimal string with exactly `places` places: `"0.80"`, `"-175.00"`."""
    return format(amount.quantize(Decimal(1).scaleb(-places)), "f")
