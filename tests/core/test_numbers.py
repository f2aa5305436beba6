"""The one rule for numbers a person types: ASCII digits, nothing else."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from napledger.core.errors import NapError
from napledger.core.numbers import amount, is_whole, whole


@pytest.mark.parametrize("text", ["0", "3", " 12 ", "007"])
def test_ascii_digits_are_whole_numbers(text):
    assert is_whole(text) and whole(text, "--tricks") == int(text)


@pytest.mark.parametrize(
    "text", ["\u0663", "\uff13", "\U0001d7d1", "\u00b2", "1_000", "-3", "+3", "3.0", "", " ", "0x3"]
)
def test_anything_else_is_not(text):
    assert not is_whole(text)
    with pytest.raises(NapError, match="--tricks wants a whole number in digits 0-9"):
        whole(text, "--tricks")


@given(st.text(max_size=8))
def test_whole_accepts_exactly_the_ascii_digit_strings(text):
    plain = text.strip()
    if plain and all(c in "0123456789" for c in plain):
        assert whole(text, "n") == int(plain)
    else:
        with pytest.raises(NapError):
            whole(text, "n")


def test_a_number_nobody_counts_to_is_refused_without_int_choking():
    with pytest.raises(NapError, match="more than anyone counts to"):
        whole("9" * 5000, "--tricks")
    assert not is_whole("9" * 5000)


@pytest.mark.parametrize(
    ("text", "value"), [("0.05", "0.05"), ("2", "2"), (".5", "0.5"), ("5E+1", "5E+1")]
)
def test_amounts_of_money(text, value):
    assert str(amount(text, "--chip")) == value


@pytest.mark.parametrize("text", ["1_000", "\u0661", "NaN", "Infinity", "-1", "1,5", "0.\uff15"])
def test_amounts_follow_the_same_rule(text):
    with pytest.raises(NapError, match="--chip wants an amount of money"):
        amount(text, "--chip")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1e999999999", "more than anyone plays for"),
        ("0e999999999", "more than anyone plays for"),
        ("1234567890123", "more than anyone plays for"),
        ("1e-999999999", "more than 12 decimal places"),
        ("0e-9999999", "more than 12 decimal places"),
        ("0.0000000000001", "more than 12 decimal places"),
    ],
)
def test_an_amount_is_bounded_on_its_text_before_decimal_works_on_it(text, why):
    with pytest.raises(NapError, match=why):
        amount(text, "--chip")


@given(st.integers(-30, 30), st.integers(1, 10**6))
def test_an_amount_within_bounds_is_read_exactly(exponent, digits):
    text = f"{digits}e{exponent}"
    value = Decimal(text)
    fits = value.adjusted() < 12 and -value.normalize().as_tuple().exponent <= 12
    if fits:
        assert amount(text, "n") == value
    else:
        with pytest.raises(NapError):
            amount(text, "n")
