"""Exactly once (docs/rules.md, "Choices napledger made where the rules are silent"): a
write naming the state it was made against is answered as the first was when it repeats
a write done, and refused, naming what changed, against a newer state."""

from __future__ import annotations

import pytest

from napledger.core import expect
from napledger.core import session as core
from napledger.core.errors import NapError
from napledger.core.options import DealOptions
from napledger.core.read.history import Revision
from napledger.core.rules import load_preset

RULES = load_preset("classic")
NAP = DealOptions(bid="nap", by="Ben", tricks=5)


def evening() -> tuple[core.SessionState, Revision]:
    """A session of one deal (Ben's nap), and that deal as the store keeps it."""
    opening = core.start("fri", RULES, ["Ann", "Ben", "Cat"], None, None, None)
    done = core.record(core.opened(opening, RULES), NAP)
    kept = Revision(1, 1, 1, "live", done.deal, done.pot_after, changes=done.changes)
    return core.identified(done.state, 1, 1), kept


def test_a_new_deal_repeated_is_the_deal_recorded_and_another_is_refused():
    state, first = evening()
    assert expect.recorded_already(state, NAP, 2, None) is None  # the next deal: go ahead
    assert expect.recorded_already(state, NAP, 1, first) is first  # a retry: that deal
    other = DealOptions(bid="three", by="Cat", made=True)
    with pytest.raises(NapError, match=r"deal 1 was recorded meanwhile \(.*\); nothing changed"):
        expect.recorded_already(state, other, 1, first)
    with pytest.raises(NapError, match="the next deal is 2, not 5; nothing changed"):
        expect.recorded_already(state, NAP, 5, None)


def test_an_amend_names_the_version_it_corrects():
    state, first = evening()
    fix = DealOptions(tricks=4)
    assert expect.amended_already(state, 1, fix, 1, [first]) is None  # still 1: go ahead
    done = core.amend(state, 1, fix, None, [core.LiveDeal(1, 1, 1, first.deal, first.pot_after)])
    second = Revision(2, 1, 2, "live", done.deal, done.pot_after, changes=done.new_changes)
    replaced = first._replace(status="replaced")
    assert expect.amended_already(done.state, 1, fix, 1, [replaced, second]) is second
    with pytest.raises(NapError, match=r"deal 1 was amended to 1\.2 meanwhile; nothing changed"):
        expect.amended_already(done.state, 1, DealOptions(tricks=3), 1, [replaced, second])
    with pytest.raises(NapError, match=r"deal 1 has no version 1\.3; nothing changed"):
        expect.amended_already(done.state, 1, fix, 3, [replaced, second])
    with pytest.raises(NapError, match="deal 1 was voided meanwhile; nothing changed"):
        expect.amended_already(state, 1, fix, 1, [first._replace(status="voided")])


def test_amending_the_last_deal_refuses_when_deals_came_since():
    state, _first = evening()
    expect.nothing_recorded_since(state, 2)
    with pytest.raises(NapError, match=r"^deal 1 was recorded meanwhile; nothing changed$"):
        expect.nothing_recorded_since(state, 1)
    later = core.record(state, DealOptions(bid="three", by="Cat", made=True)).state
    with pytest.raises(NapError, match="deals 1 to 2 were recorded meanwhile"):
        expect.nothing_recorded_since(later, 1)


def test_undo_and_void_name_the_deal_and_version_they_void():
    state, first = evening()
    assert expect.undo_expected(state, 1, 1, [first]) is False  # as seen: void it
    assert expect.undo_expected(state, 1, None, [first._replace(status="voided")]) is True
    with pytest.raises(NapError, match=r"deal 3 is not the last deal \(deal 1 is\)"):
        expect.undo_expected(state, 3, None, [])
    with pytest.raises(NapError, match=r"deal 1 was amended to 1 meanwhile; nothing was voided"):
        expect.undo_expected(state, 1, 2, [first])
    assert expect.void_expected(1, 1, [first]) is False
    assert expect.void_expected(1, 1, [first._replace(status="voided")]) is True
    with pytest.raises(NapError, match=r"deal 1 was amended to 1 meanwhile; nothing was voided"):
        expect.void_expected(1, 2, [first])
