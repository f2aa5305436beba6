"""Money as people read it: a currency's usual places, or more when a chip is finer.

One rule for every front end, so `table`, every `--json` document and the workbook show
an amount alike (0.80 GBP everywhere for 16 chips of 0.05, never 0.8 in one of them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal

from napledger.core.errors import NapError
from napledger.core.names import clean_text
from napledger.core.numbers import amount, with_currency, written
from napledger.core.words import N_, _

# Currencies without a minor unit; every other is shown with two places, like pence.
WHOLE_CURRENCIES = ("JPY", "KRW")
MAX_PLACES = 10
CHIP_PLACES = 6  # finer than any coin
MAX_CHIP = 1_000_000


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


def money_text(amount: Decimal | int, places: int, signed: bool = False) -> str:
    """An amount as a decimal string with exactly `places` places: `"0.80"`, `"-175.00"`;
    `signed`, a gain shows its plus too (`"+0.80"`)."""
    text = format(Decimal(amount).quantize(Decimal(1).scaleb(-places)), "f")
    return f"+{text}" if signed and amount > 0 else text


def chips_money(
    chips: int, chip_value: Decimal, currency: str, signed: bool = False, label: bool = False
) -> str:
    """Chips of a session as its money, in its places: `"0.70"`; `label`led, with the
    currency (`"+0.70 GBP"`, or `"+2"` where there is none)."""
    text = money_text(chips * chip_value, places(currency, chip_value), signed)
    return f"{text} {currency}".strip() if label else text


def shown_money(
    chips: int, chip_value: Decimal, currency: str, signed: bool = False, label: bool = False
) -> str:
    """`chips_money` as a person reads it, in the language spoken (`−1 234,50 ₽`); the
    JSON documents keep `chips_money`'s machine form."""
    return shown_amount(chips * chip_value, places(currency, chip_value), currency, signed, label)


def shown_amount(
    amount: Decimal | int,
    places: int,
    currency: str = "",
    signed: bool = False,
    label: bool = False,
) -> str:
    """An amount of money as a person reads it, with `places` places (a settlement's
    payment, an evening's net): `12.50`, `+0.80 GBP`, `−1 234,50 ₽` in Russian."""
    text = written(money_text(amount, places, signed))
    return with_currency(text, currency) if label else text


def money_chips(amount: Decimal, chip_value: Decimal | None) -> int | None:
    """Money turned back into chips; None where no one chip value holds (sessions of
    different chip values: their chips do not add up)."""
    return int(amount / chip_value) if chip_value else None


def summed_money(nets: Iterable[Mapping[str, Decimal]]) -> dict[str, Decimal]:
    """Each party's money over several sessions: the sum of each session's net (what an
    evening settles), in the order the parties first appear."""
    total: dict[str, Decimal] = {}
    for net in nets:
        for party, money in net.items():
            total[party] = total.get(party, Decimal(0)) + money
    return total


def chip_value(given: Decimal | str, what: str = N_("the chip value")) -> Decimal:
    """What one chip is worth, checked: more than 0, at most 6 places, at most a million.

    `given` as typed (`"0.05"`) or already a Decimal; `what` names it in a refusal.
    """
    what = _(what)
    if isinstance(given, str):
        value, shown = amount(given, what), given
    else:
        value, shown = Decimal(given), str(given)
    if not value.is_finite():
        raise NapError(
            _("{what} wants an amount of money like 0.05, not '{text}'").format(
                what=what, text=shown
            )
        )
    if value <= 0:
        raise NapError(_("{what} must be more than 0, not '{text}'").format(what=what, text=shown))
    if chip_places(value) > CHIP_PLACES:  # trailing zeros (0.0500000) are no finer a chip
        raise NapError(
            _("{what} has more than {places} decimal places: '{text}'").format(
                what=what, places=CHIP_PLACES, text=shown
            )
        )
    if value > MAX_CHIP:
        raise NapError(
            _("{what} of {text} is more than anyone plays for").format(what=what, text=shown)
        )
    # Plain notation (5E+1 is stored as 50), so money always prints as a decimal string.
    return Decimal(format(value, "f"))


def currency_code(raw: str) -> str:
    """A currency as stored: blank for none; letters folded to upper case as ISO 4217
    writes codes (gbp is GBP, so two sessions of one currency settle together); a symbol
    such as £ or € kept as typed."""
    if not raw.strip():
        return ""
    code = clean_text(raw, N_("currency"))
    return code.upper() if code.isascii() and code.isalpha() else code
