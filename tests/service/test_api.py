"""The session API on its own: plain values in, frozen values out, one transaction a call."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from decimal import Decimal

import pytest

from napledger.core.errors import NapError
from napledger.core.ledger import POT
from napledger.core.options import DealOptions
from napledger.core.read.board import Scoreboard
from napledger.core.read.history import ScoredDeal
from napledger.core.rules import load_preset
from napledger.core.seating import RosterChange
from napledger.core.tally import PlayerFigures
from napledger.service.api import Database


@pytest.fixture
def database():
    with Database() as db:  # NAPLEDGER_DB: the test's own database
        with db.write() as tx:
            tx.new_session("fri", load_preset("classic"), ["Ann", "Bob", "Cy"], Decimal("0.5"))
        yield db


def test_a_deal_is_recorded_and_the_scoreboard_returned(database):
    with database.write() as tx:
        done = tx.session().record(DealOptions(bid="nap", by="ann", tricks=5))
    assert (done.number, done.revision, done.deal.bidder) == (1, 1, "Ann")
    assert {a: c for a, c in done.changes.items() if c} == {"Ann": 20, "Bob": -10, "Cy": -10}
    board = done.scoreboard
    assert isinstance(board, Scoreboard) and board.hands == 1 and board.next_dealer == "Bob"
    assert board.chips == {"Ann": 20, "Bob": -10, "Cy": -10}
    assert board.session.name == "fri" and board.chip_value == Decimal("0.5")


def test_what_comes_out_is_frozen_plain_data_not_orm_rows(database):
    with database.write() as tx:
        s = tx.session("fri")
        s.record(DealOptions(bid="3", by="bob", made=True))
        history = s.history()
    for value in (history, history.scoreboard, history.scoreboard.session, *history.deals):
        # A frozen dataclass or a named tuple: neither takes a new value.
        assert dataclasses.is_dataclass(value) or isinstance(value, tuple)
        with pytest.raises((dataclasses.FrozenInstanceError, AttributeError)):
            value.number = 9  # type: ignore[union-attr]
        assert not any(
            "sqlmodel" in k.__module__ or "sqlalchemy" in k.__module__ for k in type(value).__mro__
        )
    assert all(type(v).__module__.startswith("napledger.") for v in history.deals)


def test_history_keeps_voided_and_replaced_revisions_with_derived_transfers(database):
    with database.write() as tx:
        s = tx.session()
        s.record(DealOptions(bid="3", by="ann", tricks=2))
        s.pass_()
        s.amend(1, DealOptions(tricks=3))
        s.undo()
        history = s.history()
    deals: list[ScoredDeal] = list(history.deals)
    assert [(d.label, d.status) for d in deals] == [
        ("1", "replaced"),
        ("1.2", "live"),
        ("2", "voided"),
    ]
    replaced, live, voided = deals
    assert replaced.payments == () and replaced.pot_after is None
    assert {(t.payer, t.payee, t.chips) for t in live.payments} == {
        ("Bob", "Ann", 3),
        ("Cy", "Ann", 3),
    }
    assert live.pot_after == live.stored_pot_after == 0
    assert dict(live.changes) == {"Ann": 6, "Bob": -3, "Cy": -3}
    assert voided.voided and not voided.changes


def test_join_leave_void_and_close(database):
    with database.write() as tx:
        s = tx.session()
        assert s.join("dee", after="Ann").player == "dee"
        assert s.leave("cy").scoreboard.seating == ("Ann", "dee", "Bob")
        s.record(DealOptions(bid="3", by="Bob", made=True))
        s.record(DealOptions(bid="3", by="Ann", failed=True))
        assert s.void(1).scoreboard.chips == {"Ann": -6, "Bob": 3, "Cy": 0, "dee": 3}
        closed = s.close("split")
    assert closed.payments == () and closed.scoreboard.session.closed
    with database.write() as tx, pytest.raises(NapError, match="is closed"):
        tx.session().pass_()


def test_a_failed_call_leaves_the_database_as_it_was(database):
    with database.write() as tx:
        tx.session().record(DealOptions(bid="3", by="Ann", made=True))
    with pytest.raises(NapError, match="no player 'zed'"), database.write() as tx:
        s = tx.session()
        s.record(DealOptions(bid="3", by="Bob", made=True))  # written, then rolled back
        s.record(DealOptions(bid="3", by="zed", made=True))
    with database.read() as tx:
        assert tx.session().scoreboard().hands == 1


def test_settlement_and_sessions(database):
    with database.write() as tx:
        tx.session().record(DealOptions(bid="nap", by="Cy", tricks=5))
    with database.read() as tx:
        done = tx.settlement([None])
        boards = tx.sessions()
        current = tx.current_id()
    assert sorted((p.payer, p.payee, p.amount) for p in done.transfers) == [
        ("Ann", "Cy", Decimal("5.0")),
        ("Bob", "Cy", Decimal("5.0")),
    ]
    assert done.chip_value == Decimal("0.5") and not done.net.get(POT)
    assert [b.session.id for b in boards] == [current]


def test_a_reading_transaction_refuses_to_write(database):
    with database.read() as tx, pytest.raises(NapError, match="for reading"):
        tx.session().undo()


def test_the_view_table_mode_shows_between_deals(database):
    with database.read() as tx:
        view = tx.session().view()
    assert (view.name, view.seated, view.number, view.dealer) == (
        "fri",
        ("Ann", "Bob", "Cy"),
        1,
        "Ann",
    )


def test_the_timeline_puts_roster_changes_and_closes_where_a_reader_meets_them(database):
    def step(act):
        with database.write() as tx:  # each change its own transaction, as at the table
            act(tx.session())

    step(lambda s: s.record(DealOptions(bid="3", by="ann", tricks=3)))
    step(lambda s: s.join("Dee"))
    step(lambda s: s.record(DealOptions(bid="3", by="bob", tricks=1)))
    step(lambda s: s.close())
    step(lambda s: s.reopen())
    step(lambda s: s.leave("Cy"))
    step(lambda s: s.record(DealOptions(bid="3", by="dee", tricks=3)))
    step(lambda s: s.amend(1, DealOptions(tricks=2)))  # a correction does not move the close
    step(lambda s: s.join("Cy"))  # in force from the next deal: at the end
    with database.read() as tx:
        history = tx.session().history()

    def name(event):
        if isinstance(event, ScoredDeal):
            return event.label
        if isinstance(event, RosterChange):
            return f"{event.kind} {event.player}"
        return "close" if event.live else "reopened close"

    assert [name(e) for e in history.timeline] == [
        "1",
        "1.2",
        "join Dee",
        "2",
        "reopened close",
        "leave Cy",
        "3",
        "join Cy",
    ]


def test_sessions_between_chooses_by_the_instant_a_session_started(database):
    with database.write() as tx:
        tx.new_session("sat", load_preset("classic"), ["Ann", "Bob", "Cy"])
        started = {s.session.name: s.session.created_at for s in tx.sessions()}
    second = timedelta(seconds=1)
    with database.read() as tx:

        def names(*args, **kwargs):
            return [s.name for s in tx.sessions_between(*args, **kwargs)]

        assert names() == ["fri", "sat"]
        assert names(started["sat"]) == ["sat"]  # the start is in, the end is out
        assert names(until=started["sat"]) == ["fri"]
        assert names(started["sat"] + second) == []
        assert names(refs=["sat", "fri", "FRI"]) == ["sat", "fri"]  # as named, each once
        assert names(until=started["sat"], refs=["sat", "fri"]) == ["fri"]


def test_stats_come_out_frozen_too(database):
    with database.write() as tx:
        tx.session().record(DealOptions(bid="nap", by="Cy", tricks=5))
        figures = tx.stats()
    cy = figures.player("Cy")
    assert (cy.chips, cy.naps_made, cy.bids.made, cy.by_bid["nap"].made) == (20, 1, 1, 1)
    assert figures.player("Nobody") == PlayerFigures("Nobody")  # nought, and not added
    assert "Nobody" not in figures.players
    for value in (figures, cy, cy.bids):
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.chips = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        cy.money["GBP"] = Decimal(1)  # type: ignore[index]
    with pytest.raises(TypeError):
        figures.players["Cy"] = cy  # type: ignore[index]


def test_undo_with_an_expected_number_voids_only_that_last_deal(database):
    with database.write() as tx:
        s = tx.session()
        s.record(DealOptions(bid="3", by="ann", tricks=3))
        s.record(DealOptions(bid="3", by="bob", tricks=3))
    refused = pytest.raises(NapError, match=r"^deal 1 is not the last deal \(deal 2 is\)")
    with refused, database.write() as tx:
        tx.session().undo(expected=1)
    with database.read() as tx:
        assert tx.session().scoreboard().hands == 2
    with database.write() as tx:
        assert tx.session().undo(expected=2).number == 2


def test_house_rules_through_the_session_api_examples_17_and_18():
    """docs/rules.md examples 17 (the opening stake) and 18 (doubles after a pass)."""
    from napledger.core.rules.load import with_overrides

    rules = with_overrides(load_preset("classic"), ["empty_pot_ante=2", "pass_doubles=on"])
    with Database() as db:
        with db.write() as tx:
            tx.new_session("books", rules, ["A", "B", "C", "D"], Decimal(1))
        with db.write() as tx:
            opened = tx.session("books").record(DealOptions(bid="nap", by="B", made=True))
        assert {a: c for a, c in opened.changes.items() if c} == {
            "A": -12, "B": 36, "C": -12, "D": -12
        }  # fmt: skip
        with db.write() as tx:
            tx.session("books").pass_()  # the pot was taken: everyone opens it again (8)
        with db.write() as tx:
            voided = tx.session("books").record(DealOptions(bid="four", by="C", made=True))
        assert voided.changes["C"] == 2 * 4 * 3  # right after the pass: twice the stake
        with db.write() as tx:
            tx.session("books").undo(voided.number)
            again = tx.session("books").record(DealOptions(bid="four", by="C", made=True))
        assert again.changes["C"] == 2 * 4 * 3  # the voided deal does not count
        with db.write() as tx:
            later = tx.session("books").record(DealOptions(bid="three", by="D", made=True))
        assert later.changes["D"] == 3 * 3 and later.scoreboard.pot == 8


def test_house_rules_through_the_session_api_examples_19_and_20():
    """docs/rules.md examples 19 (a revoke fine into the pool) and 20 (the dealer's look)."""
    from napledger.core.rules.load import with_overrides

    classic = load_preset("classic")
    with Database() as db:
        with db.write() as tx:
            tx.new_session(
                "fine",
                with_overrides(classic, ["pool=on", "revoke_fine=5"]),
                list("ABCD"),
                Decimal(1),
            )
            tx.new_session("look", classic, list("ABCDE"), Decimal(1))
        with db.write() as tx:
            fined = tx.session("fine").record(DealOptions(bid="four", by="B", revoke="D"))
        assert dict(fined.changes) == {"A": -1, "B": 11, "C": -1, "D": -18, POT: 9}
        with db.write() as tx:
            looked = tx.session("look").record(
                DealOptions(bid="three", by="B", made=True, peeps=("A", "C"))
            )
        assert dict(looked.changes) == {"A": -3, "B": 12, "C": -4, "D": -3, "E": -3, POT: 1}


def test_the_session_just_started_is_the_current_one_in_the_same_transaction(tmp_path):
    """`new` and then a call without a name, in one transaction: the new session is the
    current one (it was looked up by an empty name and not found)."""
    from decimal import Decimal

    from napledger.core.rules import load_preset
    from napledger.service.api import Database

    with Database(f"sqlite:///{tmp_path / 'one.db'}") as database, database.write() as tx:
        tx.new_session("fri", load_preset("classic"), ("Ann", "Ben", "Cat"), Decimal("0.05"))
        assert tx.session().info.name == "fri"
