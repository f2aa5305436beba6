"""Settling up and closing, through the session service: the pot split, carried or
taken, and the fewest payments. How `settle` and `close` are typed and drawn is
tests/cli/test_settle_close.py's."""

from __future__ import annotations

from decimal import Decimal

import pytest

from napledger.core.errors import NapError


def russian_evening(table, name="moscow"):
    table.new(name, "A,B,C,D", variant="russian", chip="5", currency="RUB")
    table.hand("three", "B", made=True)
    table.hand("4", "C", tricks=2)
    table.hand("napoleon", "D", failed=True)
    table.hand("napoleon", "A", made=True)


def test_settle_example_8_in_three_payments(table):
    russian_evening(table)
    plan = table.transfers()
    assert len(plan) == 3
    left = {"A": Decimal(175), "B": Decimal(60), "C": Decimal(-100), "D": Decimal(-135)}
    for payer, payee, money in plan:
        left[payer] += money  # a debtor pays off what they owe
        left[payee] -= money
        assert money % 5 == 0  # whole chips of 5
    assert set(left.values()) == {0}


def test_settle_joins_sessions_by_player_name(table):
    table.new("one", "Ann,Ben,Cat", chip="0.10", currency="GBP")
    table.hand("3", "ann", made=True)  # Ann +6, Ben -3, Cat -3
    table.new("two", "ben,cat,ann", chip="0.10", currency="GBP")
    table.hand("3", "ann", made=True)
    assert table.transfers("one", "two") == [
        ("Ben", "Ann", Decimal("0.60")),
        ("Cat", "Ann", Decimal("0.60")),
    ]


def test_settle_refuses_to_mix_currencies(table):
    table.new("one", "A,B,C", currency="GBP")
    table.new("two", "A,B,C", currency="EUR")
    with pytest.raises(NapError, match="different currencies"):
        table.transfers("one", "two")


def test_open_session_settles_as_if_the_pot_were_split(table):
    table.new("p", "A,B,C", rules=["pool=on"])
    table.pass_()  # everyone antes 1: pot 3
    assert table.transfers() == []


def test_close_carry_and_carry_from_grow_the_box_across_evenings(table):
    table.new("first", "A,B,C", variant="russian")
    table.hand("2", "A", failed=True)  # A antes 1, pays 2 each and 2 to the box: box 3
    table.close("carry")
    assert set(table.transfers("first")) == {("A", "pot", 3), ("A", "B", 2), ("A", "C", 2)}
    table.new("second", "A,B,C", variant="russian", carry_from="first")
    assert table.pot() == 3
    assert table.problems() == []
    with pytest.raises(NapError, match="already carried"):
        table.new("third", "A,B,C", variant="russian", carry_from="first")
    table.hand("napoleon", "B", made=True)  # A deals and antes (box 4); B takes it and 5 each
    assert table.chips() == {"A": -1 - 5, "B": 10 + 4, "C": -5}
    # Over both evenings the box is empty again, so it is no party to the settlement.
    assert "pot" not in {who for p in table.transfers("first", "second") for who in p[:2]}


def test_close_gives_the_pot_to_a_player_and_then_refuses_new_deals(table):
    table.new("x", "A,B,C", rules=["pool=on"])
    table.pass_()
    table.close("b")
    assert table.chips() == {"A": -1, "B": 2, "C": -1}
    with pytest.raises(NapError, match="closed"):
        table.hand("3", "A", made=True)
    with pytest.raises(NapError, match="closed"):
        table.close()


def test_carry_from_needs_a_carried_pot(table):
    table.new("x", "A,B,C")
    table.close()
    with pytest.raises(NapError, match="did not carry"):
        table.new("y", "A,B,C", carry_from="x")


def test_a_session_named_twice_is_settled_once(table):
    table.new("one", "A,B,C")
    table.hand("3", "A", made=True)
    once = table.transfers()
    assert table.transfers("one", "1", "ONE") == once
    assert [money for _, _, money in once] == [3, 3]


def test_reopen_refuses_an_open_session_and_a_pot_another_session_took(table):
    table.new("first", "A,B,C", variant="russian")
    with pytest.raises(NapError, match="is not closed"):
        table.reopen()
    table.pass_()
    table.close("carry")
    table.new("second", "A,B,C", variant="russian", carry_from="first")
    with pytest.raises(NapError) as refused:
        table.reopen("first")
    assert str(refused.value) == (
        "the pot of 'first' was carried into 'second', so it cannot be reopened"
    )
    assert table.read(lambda s: s.scoreboard().session.closed, "first")
