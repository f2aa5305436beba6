"""The one rule for numbers a person types: ASCII digits, nothing else."""

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
