"""The one way money is written: places, signs and the currency label."""

from decimal import Decimal

import pytest

from napledger.core.errors import NapError
from napledger.core.money import chip_value, chips_money, money_text


@pytest.mark.parametrize(
    ("amount", "places", "signed", "text"),
    [
        (Decimal("0.8"), 2, False, "0.80"),
        (Decimal("0.8"), 2, True, "+0.80"),
        (Decimal("-175"), 2, True, "-175.00"),
        (Decimal(0), 2, True, "0.00"),
        (3, 0, True, "+3"),
    ],
)
def test_money_text(amount, places, signed, text):
    assert money_text(amount, places, signed) == text


@pytest.mark.parametrize(
    ("chips", "chip", "currency", "text"),
    [
        (14, Decimal("0.05"), "GBP", "+0.70 GBP"),  # pence: two places
        (20, Decimal(1), "GBP", "+20.00 GBP"),
        (-10, Decimal(5), "JPY", "-50 JPY"),  # no minor unit
        (5, Decimal("0.5"), "JPY", "+2.5 JPY"),  # a finer chip keeps its places
        (2, Decimal(1), "", "+2"),  # whole chips of no currency: plain numbers
        (0, Decimal("0.05"), "", "0.00"),
    ],
)
def test_chips_money_labelled_and_signed(chips, chip, currency, text):
    assert chips_money(chips, chip, currency, signed=True, label=True) == text
    assert chips_money(chips, chip, currency) == text.split()[0].removeprefix("+")


@pytest.mark.parametrize("typed", ["0.0500000", "0.000001000", "5.0000000000", "1E-2"])
def test_trailing_zeros_are_not_decimal_places_of_a_chip(typed):
    assert chip_value(typed) == Decimal(typed)


@pytest.mark.parametrize("typed", ["0.0000001", "0.00000010", "0.0000015"])
def test_a_chip_finer_than_six_places_is_refused(typed):
    with pytest.raises(NapError, match="more than 6 decimal places"):
        chip_value(typed)
