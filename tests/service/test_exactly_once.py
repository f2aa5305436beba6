"""Writes that name the state they expect (docs/rules.md, "Exactly once"): a repeat is
answered with what it did, a write against a newer state is refused and changes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from napledger.core.errors import NapError
from napledger.core.options import DealOptions
from napledger.core.rules import load_preset
from napledger.service.api import Database

NAP = DealOptions(bid="nap", by="ann", tricks=5)


@pytest.fixture
def database():
    with Database() as db:
        with db.write() as tx:
            tx.new_session("fri", load_preset("classic"), ["Ann", "Bob", "Cy", "Dan"], Decimal(1))
        yield db


def write(database, call):
    with database.write() as tx:
        return call(tx.session())


def state(database):
    """Every revision of every deal and the chips: what must not move on a refusal."""
    with database.read() as tx:
        history = tx.session().history()
    deals = [(d.label, d.status, d.deal) for d in history.deals]
    return deals, history.scoreboard.chips, history.scoreboard.pot


def refused(database, call) -> str:
    before = state(database)
    with pytest.raises(NapError) as caught:
        write(database, call)
    assert state(database) == before
    return str(caught.value)


def test_a_new_deal_sent_twice_is_recorded_once_and_both_answered(database):
    first = write(database, lambda s: s.record(NAP, expect_number=1))
    again = write(database, lambda s: s.record(NAP, expect_number=1))
    assert (first.number, again.number) == (1, 1)
    assert again.deal == first.deal and again.revision == 1
    assert again.scoreboard.hands == 1 and again.scoreboard.chips == first.scoreboard.chips


def test_a_pass_sent_twice_is_one_deal(database):
    write(database, lambda s: s.pass_(DealOptions(), expect_number=1))
    assert write(database, lambda s: s.pass_(DealOptions(), expect_number=1)).number == 1
    assert [(label, status) for label, status, _ in state(database)[0]] == [("1", "live")]


def test_a_different_deal_under_a_taken_number_is_refused_with_what_it_is(database):
    write(database, lambda s: s.record(NAP))  # typed in a terminal meanwhile
    message = refused(
        database, lambda s: s.record(DealOptions(bid="3", by="bob", made=True), expect_number=1)
    )
    assert message == (
        "deal 1 was recorded meanwhile (Ann dealt · Ann bid nap: made (5 tricks)); "
        "nothing changed (the next deal is 2)"
    )
    assert refused(database, lambda s: s.record(NAP, expect_number=5)) == (
        "the next deal is 2, not 5; nothing changed"
    )


def test_the_repeat_of_a_deal_with_a_named_dealer_is_still_a_repeat(database):
    named = DealOptions(bid="3", by="cy", made=True, dealer="dan")
    write(database, lambda s: s.record(named, expect_number=1))
    assert write(database, lambda s: s.record(named, expect_number=1)).deal.dealer == "Dan"
    # The same deal dealt by someone else is another deal.
    other = DealOptions(bid="3", by="cy", made=True, dealer="bob")
    assert "deal 1 was recorded meanwhile" in refused(
        database, lambda s: s.record(other, expect_number=1)
    )


def test_an_amend_sent_twice_makes_one_revision(database):
    write(database, lambda s: s.record(NAP))
    fix = DealOptions(tricks=4)
    first = write(database, lambda s: s.amend(1, fix, expect_revision=1))
    again = write(database, lambda s: s.amend(1, fix, expect_revision=1))
    assert (first.revision, again.revision) == (2, 2)
    assert [label for label, _, _ in state(database)[0]] == ["1", "1.2"]


def test_an_amend_prepared_before_another_correction_is_refused(database):
    write(database, lambda s: s.record(NAP))
    write(database, lambda s: s.amend(1, DealOptions(tricks=4)))  # in a terminal
    assert refused(database, lambda s: s.amend(1, DealOptions(tricks=3), expect_revision=1)) == (
        "deal 1 was amended to 1.2 meanwhile; nothing changed"
    )
    # Against the version now shown, it goes through.
    assert write(database, lambda s: s.amend(1, DealOptions(tricks=3), expect_revision=2)).revision
    assert "has no version 1.7" in refused(
        database, lambda s: s.amend(1, DealOptions(tricks=2), expect_revision=7)
    )


def test_an_amend_of_the_last_deal_prepared_before_a_new_deal_is_refused(database):
    write(database, lambda s: s.record(NAP))
    write(database, lambda s: s.pass_())  # deal 2, from a terminal
    assert refused(
        database, lambda s: s.amend(1, DealOptions(tricks=4), expect_revision=1, expect_next=2)
    ) == ("deal 2 was recorded meanwhile; nothing changed")
    write(database, lambda s: s.pass_())
    assert refused(
        database, lambda s: s.amend(1, DealOptions(tricks=4), expect_revision=1, expect_next=2)
    ) == ("deals 2 to 3 were recorded meanwhile; nothing changed")


def test_an_amend_of_a_deal_voided_meanwhile_is_refused(database):
    write(database, lambda s: s.record(NAP))
    write(database, lambda s: s.undo())
    assert refused(database, lambda s: s.amend(1, DealOptions(tricks=4), expect_revision=1)) == (
        "deal 1 was voided meanwhile; nothing changed"
    )


def test_an_undo_sent_twice_voids_one_deal(database):
    write(database, lambda s: s.record(NAP))
    write(database, lambda s: s.pass_())
    assert write(database, lambda s: s.undo(2, expect_revision=1)).number == 2
    assert write(database, lambda s: s.undo(2, expect_revision=1)).number == 2
    assert [(label, status) for label, status, _ in state(database)[0]] == [
        ("1", "live"),
        ("2", "voided"),
    ]


def test_an_undo_prepared_before_a_new_deal_or_a_correction_is_refused(database):
    write(database, lambda s: s.record(NAP))
    write(database, lambda s: s.pass_())  # deal 2 from a terminal; the page said "Undo deal 1"
    assert refused(database, lambda s: s.undo(1, expect_revision=1)) == (
        "deal 1 is not the last deal (deal 2 is); nothing was voided"
    )
    write(database, lambda s: s.amend(2, DealOptions(note="late")))
    assert refused(database, lambda s: s.undo(2, expect_revision=1)) == (
        "deal 2 was amended to 2.2 meanwhile; nothing was voided"
    )


def test_void_with_a_revision_repeats_and_refuses_like_amend(database):
    write(database, lambda s: s.record(NAP))
    write(database, lambda s: s.amend(1, DealOptions(tricks=4)))
    assert refused(database, lambda s: s.void(1, expect_revision=1)) == (
        "deal 1 was amended to 1.2 meanwhile; nothing was voided"
    )
    assert write(database, lambda s: s.void(1, expect_revision=2)).number == 1
    assert write(database, lambda s: s.void(1, expect_revision=2)).number == 1
    # Without an expectation, voiding twice is refused as it always was.
    assert "is voided and stays so" in refused(database, lambda s: s.void(1))


def test_without_expectations_a_second_deal_is_a_second_deal(database):
    write(database, lambda s: s.record(NAP))
    assert write(database, lambda s: s.record(NAP)).number == 2


def everything(database):
    """The deals, the chips, who sat when and every close: a refusal moves none of it."""
    with database.read() as tx:
        history = tx.session().history()
    return state(database), list(history.roster), list(history.closes)


def once(database, call):
    """`call` done once, then again as a repeat: both answered, nothing added the second time."""
    first = write(database, call)
    after = everything(database)
    again = write(database, call)
    assert everything(database) == after
    return first, again


def test_a_join_or_leave_sent_twice_changes_the_seating_once(database):
    first, again = once(database, lambda s: s.join("Zed", expect_seating=4))
    assert first.player == again.player == "Zed"
    first, again = once(database, lambda s: s.leave("zed", expect_seating=5))
    assert first.player == again.player == "Zed"
    # A join drawn before the leave is stale: refused, saying who sits now.
    said = refused(database, lambda s: s.join("Zed", expect_seating=4))
    assert said == "the seating changed meanwhile; nothing changed (seated now: Ann, Bob, Cy, Dan)"
    assert "seating changed" in refused(database, lambda s: s.leave("Dan", expect_seating=5))


def test_a_close_and_a_reopen_sent_twice_are_done_once(database):
    write(database, lambda s: s.record(NAP))
    first, again = once(database, lambda s: s.close("split", expect_closes=0))
    assert first.payments == again.payments and again.scoreboard.session.closed
    once(database, lambda s: s.reopen(expect_close=1))
    # The first close sent again after the reopen: not a third close, refused.
    said = refused(database, lambda s: s.close("split", expect_closes=0))
    assert said == "the session was closed or reopened meanwhile; nothing changed"
    write(database, lambda s: s.close("carry", expect_closes=1))
    assert "meanwhile" in refused(database, lambda s: s.reopen(expect_close=1))  # not that close
    with database.read() as tx:
        assert [c.live for c in tx.session().history().closes] == [False, True]


def test_a_deal_sent_again_after_its_undo_is_not_told_as_recorded(database):
    write(database, lambda s: s.record(NAP, expect_number=1))
    write(database, lambda s: s.undo(1))
    said = refused(database, lambda s: s.record(NAP, expect_number=1))
    assert said == "deal 1 was voided meanwhile; nothing changed"
