"""What the live page reads (napledger/service/page.py and the core's read model of the
page): its board says the evening in the terminal's words, and the organiser's games
are chosen and described once."""

from __future__ import annotations

import pytest

from napledger.core.errors import NapError
from napledger.core.options import DealOptions
from napledger.core.read.games import chosen_rules, games
from napledger.core.read.said import next_to_deal
from napledger.core.rules import load_preset
from napledger.service import page
from napledger.service.api import Database
from napledger.service.kept import KeptHistory


def test_the_board_says_the_next_deal_as_the_terminal_and_counts_as_the_service():
    six = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]  # classic: the dealer sits out from 6
    with Database() as db:
        with db.write() as tx:
            tx.new_session("fri", load_preset("classic"), six)
            s = tx.session("fri")
            s.record(DealOptions(bid="3", by="Ben", made=True))
            s.record(DealOptions(bid="3", by="Cat", made=True))
            s.undo()  # deal 2 voided: the next deal is still 3
            s.join("Gus")
        with db.read() as tx:
            s = tx.session("fri")
            board = page.board(s, KeptHistory())
            assert board == page.board(s)  # the kept history reads the same board
            dealer = s.scoreboard().next_dealer
            assert board.next_number == s.view().number == 3
            assert board.seating_version == s.seating_version() == len(six) + 1  # and Gus
            assert board.closes == s.closes_made() == 0
    assert dealer is not None
    assert board.upcoming == f"Deal 3 · {next_to_deal(dealer, sits_out=True)}"
    assert board.undo_question == f"Void deal 1: {board.deals[0].text}?"
    assert [v for v, _ in board.pot_choices] == ["split", "carry", *board.seated]


def test_a_game_is_chosen_by_name_and_only_the_settings_changed_are_applied():
    classic = next(g for g in games() if g.name == "classic")
    said = {s.kind: classic.default_said(s) for s in classic.settings}
    assert said["switch"] in ("default: on", "default: off")
    assert said["number"].removeprefix("default: ").isdigit()
    assert classic.settings_heading == f"{classic.title}: settings"
    same = {s.key: s.value for s in classic.settings}
    assert chosen_rules("classic", same) == load_preset("classic")
    with pytest.raises(NapError, match="no game '/etc/passwd': choose one of classic"):
        chosen_rules("/etc/passwd", {})
