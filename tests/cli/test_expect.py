"""`--expect` on the commands that change deals (docs/rules.md, "Exactly once"): a repeat
is told as the first time and adds nothing; a newer state is refused, nothing changed."""

from __future__ import annotations

import pytest


@pytest.fixture
def table(nap):
    nap("new fri --players Ann,Ben,Cat,Dan")
    nap("hand nap --by Ann --tricks 5")


def test_hand_twice_with_the_same_number_is_one_deal_told_twice(nap, table):
    first = nap("hand 3 --by Ben --made --expect 2").stdout
    again = nap("hand 3 --by Ben --made --expect 2").stdout
    assert first == again and "Deal 2 · Ben dealt · Ben bid three: made" in again
    assert nap.json("table --json")["hands"] == 2


def test_hand_under_a_number_taken_by_another_deal_is_refused(nap, table):
    before = nap.json("hands --json")
    assert nap.fails("hand 3 --by Ben --made --expect 1") == (
        "Error: deal 1 was recorded meanwhile (Ann dealt · Ann bid nap: made (5 tricks)); "
        "nothing changed (the next deal is 2)"
    )
    assert nap.fails("pass --expect 3") == "Error: the next deal is 2, not 3; nothing changed"
    assert nap.json("hands --json") == before
    assert "passed out" in nap("pass --expect 2").stdout


def test_amend_and_void_expect_the_version_shown(nap, table):
    assert "(now 1.2)" in nap("amend 1 --tricks 4 --expect 1").stdout
    assert "(now 1.2)" in nap("amend 1 --tricks 4 --expect 1").stdout  # a repeat
    before = nap.json("hands --json")
    assert nap.fails("amend 1 --tricks 3 --expect 1") == (
        "Error: deal 1 was amended to 1.2 meanwhile; nothing changed"
    )
    assert nap.fails("void 1 --expect 1") == (
        "Error: deal 1 was amended to 1.2 meanwhile; nothing was voided"
    )
    assert nap.json("hands --json") == before
    assert nap("void 1 --expect 1.2").stdout.startswith("Deal 1 voided.")
    assert nap("void 1 --expect 1.2").stdout.startswith("Deal 1 voided.")  # a repeat
    assert "stays so" in nap.fails("void 1")  # without --expect, as before


def test_undo_expects_the_last_deal_shown(nap, table):
    nap("pass")
    before = nap.json("hands --json")
    assert nap.fails("undo --expect 1") == (
        "Error: deal 1 is not the last deal (deal 2 is); nothing was voided"
    )
    assert nap.json("hands --json") == before
    assert nap("undo --expect 2").stdout.startswith("Deal 2 voided.")
    assert nap("undo --expect 2").stdout.startswith("Deal 2 voided.")  # a repeat
    assert nap.json("table --json")["hands"] == 1


def test_an_expectation_naming_another_deal_is_a_usage_error(nap, table):
    assert "names deal 2, not deal 1" in nap.fails("amend 1 --made --expect 2.2", code=2)
    assert "whole number" in nap.fails("void 1 --expect 1.x", code=2)


def test_join_and_leave_expect_the_seating_table_json_shows(nap, table):
    seen = nap.json("table --json")["seating_version"]
    assert seen == 4
    first = nap(f"join Zed --expect {seen}").stdout
    assert nap(f"join Zed --expect {seen}").stdout == first  # a repeat: told again
    assert nap.fails(f"leave Ben --expect {seen}") == (
        "Error: the seating changed meanwhile; nothing changed "
        "(seated now: Ann, Ben, Cat, Dan, Zed)"
    )
    nap("leave Zed --expect 5")
    nap("leave Zed --expect 5")
    assert nap.json("table --json")["seating_version"] == 6


def test_close_and_reopen_expect_the_closes_table_json_shows(nap, table):
    assert nap.json("table --json")["closes"] == 0
    first = nap("close --yes --expect 0").stdout
    assert nap("close --yes --expect 0").stdout == first  # a repeat: the one close, told again
    nap("reopen --expect 1")
    nap("reopen --expect 1")
    assert nap.fails("close --yes --expect 0") == (
        "Error: the session was closed or reopened meanwhile; nothing changed"
    )
    assert nap.json("table --json")["closes"] == 1


def test_new_sent_again_with_expect_new_is_told_again_while_nothing_was_played(nap):
    first = nap("new sat --players Ann,Ben,Cat --expect-new").stdout
    assert nap("new sat --players Ann,Ben,Cat --expect-new").stdout == first
    assert [s["name"] for s in nap.json("sessions --json")["sessions"]] == ["sat"]
    assert "sat" in nap.fails("new sat --players Ann,Ben,Dan --expect-new")  # another session
    nap("hand 3 --by Ann --made")
    assert "sat" in nap.fails("new sat --players Ann,Ben,Cat --expect-new")  # played since
