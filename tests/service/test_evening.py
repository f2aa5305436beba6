"""Whole evenings through the session service, checked against the worked examples of
docs/rules.md. The same evening typed at the command line, and what it prints, is
tests/cli/test_evening.py's."""

from __future__ import annotations

from decimal import Decimal

import pytest

from napledger.core.errors import NapError


def test_russian_treasure_box_example_8(table):
    table.new("moscow", "A,B,C,D", variant="russian", chip="5", currency="RUB")
    table.hand("three", "B", made=True)
    table.hand("4", "C", tricks=2)
    table.hand("napoleon", "D", failed=True)
    assert table.pot() == 14
    table.hand("наполеон", "A", made=True)
    assert table.pot() == 0
    board = table.read(lambda s: s.scoreboard())
    money = {p: Decimal(board.money(chips)) for p, chips in board.chips.items()}
    assert money == {"A": 175, "B": 60, "C": -100, "D": -135}


def test_dealer_rotates_and_sits_out_at_six(table):
    table.new("six", "A,B,C,D,E,F", dealer="F")
    table.hand("four", "A", made=True)
    assert table.dealers() == ["F"]
    assert table.read(lambda s: s.scoreboard().next_dealer) == "A"
    assert table.chips() == {"A": 20, "B": -4, "C": -4, "D": -4, "E": -4, "F": -4}
    with pytest.raises(NapError, match="A sits out"):
        table.hand("four", "A", made=True)


def test_pool_example_9_and_close_split(table):
    table.new("pool", "A,B,C,D", rules=["pool=on"], dealer="D")
    table.hand("three", "A", made=True)
    assert table.pot() == 4
    table.hand("nap", "B", tricks=5)
    assert table.chips() == {"A": -3, "B": 33, "C": -15, "D": -15}
    table.pass_()
    assert table.pot() == 4
    table.close("split")
    board = table.read(lambda s: s.scoreboard())
    assert board.session.closed and board.pot == 0
    assert dict(board.chips) == {"A": -3, "B": 33, "C": -15, "D": -15}
