"""How the evening reads, decided once (napledger/core/read/said.py, core/money.py): the
rules themselves, on the core. tests/test_front_ends_agree.py shows the four front ends
draw them alike."""

from decimal import Decimal

import pytest

from napledger.core.money import money_chips, shown_amount, shown_money, summed_money
from napledger.core.read.said import by_chips, deal_label, revision_suffix, step_number
from napledger.core.words import speaking


@pytest.mark.parametrize(
    ("number", "revision", "label"), [(5, 1, "5"), (5, 2, "5.2"), (12, 10, "12.10")]
)
def test_a_deal_is_labelled_by_its_number_and_any_revision_past_the_first(number, revision, label):
    assert deal_label(number, revision) == label
    assert deal_label(number, revision) == f"{number}{revision_suffix(revision)}"


def test_a_chart_step_is_the_deal_number_or_the_close():
    assert [step_number(s) for s in ("3", "3.2", "12.10", "close")] == ["3", "3", "12", "close"]


def test_the_board_puts_most_chips_first_and_a_tie_in_seat_order():
    players = ("Ann", "Ben", "Cat", "Dan")
    chips = {"Ann": -4, "Ben": 6, "Cat": -4, "Dan": 2}
    assert by_chips(players, chips) == ["Ben", "Dan", "Ann", "Cat"]
    # A tie keeps the seat order, whatever the names' alphabetical order.
    assert by_chips(("Zoe", "Abe"), {"Zoe": 0, "Abe": 0}) == ["Zoe", "Abe"]


def test_money_turns_back_into_chips_only_where_one_chip_value_holds():
    assert money_chips(Decimal("0.35"), Decimal("0.05")) == 7
    assert money_chips(Decimal("-0.35"), Decimal("0.05")) == -7
    assert money_chips(Decimal("0.35"), None) is None


def test_money_over_sessions_is_the_sum_of_each_sessions_net():
    nets = [
        {"Ann": Decimal("0.30"), "Ben": Decimal("-0.30")},
        {"Ben": Decimal("0.10"), "pot": Decimal("-0.10")},
    ]
    total = summed_money(nets)
    assert total == {"Ann": Decimal("0.30"), "Ben": Decimal("-0.20"), "pot": Decimal("-0.10")}
    assert list(total) == ["Ann", "Ben", "pot"]  # as the parties first appear
    assert summed_money([]) == {}


def test_an_amount_is_written_as_chips_of_money_are():
    # A settlement's payment and a player's chips come out alike for the same money.
    assert shown_amount(Decimal("0.35"), 2) == shown_money(7, Decimal("0.05"), "GBP") == "0.35"
    assert shown_amount(Decimal("0.35"), 2, "GBP", signed=True, label=True) == "+0.35 GBP"
    assert shown_amount(Decimal("-0.35"), 2, "GBP", signed=True) == "-0.35"
    with speaking("ru"):
        assert (
            shown_amount(Decimal("-1234.5"), 2, "RUB", label=True) == "\u22121\u00a0234,50\u00a0₽"
        )
