"""Corrections never fail with a database error (#37): random evenings under every preset
and every setting, then random corrections — an amend of any deal to any bid or to a pass,
a void of any deal, an undo — each accepted, or refused with a rule's reason and the
database exactly as before; `verify` finds the evening clean after each.

The case that failed: with `empty_pot_ante`, a correction after which a later passed-out
deal posts nothing (its pot is no longer empty) wrote an empty set of entries."""

from __future__ import annotations

import contextlib
import itertools

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from napledger.core.errors import NapError, RuleError
from napledger.core.options import DealOptions
from napledger.core.rules import load_preset
from napledger.core.rules.load import BOOL_SETTINGS, CHIP_SETTINGS, DEALER_PEEPS, with_overrides
from napledger.service.api import Database, SessionAPI

PRESETS = ("classic", "russian", "seven-card")
PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]
EVENINGS = itertools.count(1)

a_setting = st.one_of(
    st.tuples(st.sampled_from(CHIP_SETTINGS), st.sampled_from(["0", "1", "2"])),
    st.tuples(st.sampled_from(BOOL_SETTINGS), st.sampled_from(["yes", "no"])),
    st.tuples(st.just("dealer_peeps"), st.sampled_from(DEALER_PEEPS)),
    st.tuples(st.just("dealer_sits_out_from"), st.sampled_from(["never", "4", "5"])),
    st.tuples(st.just("purchase_max_dealt"), st.sampled_from(["no", "3", "4"])),
)
a_deal = st.tuples(
    st.integers(0, 20),  # the bid, by its place among the game's bids; past them: a pass
    st.integers(0, 4),  # the bidder, by seat
    st.booleans(),  # made
    st.booleans(),  # the bidder peeped
)
a_correction = st.one_of(
    st.tuples(st.just("amend"), st.integers(0, 20), a_deal),
    st.tuples(st.just("void"), st.integers(0, 20)),
    st.tuples(st.just("undo")),
)


def rules_with(preset: str, chosen: list[tuple[str, str]]):
    rules = load_preset(preset)
    for key, value in chosen:  # one at a time: a setting this game has not is skipped
        with contextlib.suppress(RuleError):
            rules = with_overrides(rules, [f"{key}={value}"])
    return rules


def options(s: SessionAPI, bids: list[str], deal: tuple[int, int, bool, bool]) -> DealOptions:
    bid, by, made, peeped = deal
    if bid >= len(bids):
        return DealOptions(bid="pass")
    seated = s.scoreboard().seating
    who = seated[by % len(seated)]
    return DealOptions(
        bid=bids[bid], by=who, made=made, failed=not made, peeps=(who,) if peeped else None
    )


def live_numbers(s: SessionAPI) -> list[int]:
    return [d.number for d in s.history(with_roster=False).deals if d.live]


def correct(s: SessionAPI, bids: list[str], kind: str, *args) -> None:
    live = live_numbers(s) or [1]
    if kind == "amend":
        which, deal = args
        s.amend(live[which % len(live)], options(s, bids, deal))
    elif kind == "void":
        s.void(live[args[0] % len(live)])
    else:
        s.undo()


def snapshot(s: SessionAPI):
    history = s.history()
    return s.scoreboard(), [(d.id, d.status, dict(d.changes)) for d in history.deals]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(  # the issue's: deal 1 a nap made, deal 2 passed into an empty pot, deal 1 amended to a pass
    preset="classic",
    chosen=[("empty_pot_ante", "1")],
    players=3,
    deals=[(3, 0, True, False), (99, 0, False, False)],
    corrections=[("amend", 0, (99, 0, False, False)), ("void", 0)],
)
@example(
    preset="classic",
    chosen=[("empty_pot_ante", "1")],
    players=3,
    deals=[(3, 0, True, False), (99, 0, False, False)],
    corrections=[("void", 0)],
)
@given(
    preset=st.sampled_from(PRESETS),
    chosen=st.lists(a_setting, max_size=6),
    players=st.integers(3, 5),
    deals=st.lists(a_deal, min_size=1, max_size=8),
    corrections=st.lists(a_correction, min_size=1, max_size=6),
)
def test_a_correction_is_done_or_refused_for_a_reason(preset, chosen, players, deals, corrections):
    rules = rules_with(preset, chosen)
    bids = [b.name for b in rules.enabled_bids]
    evening = f"evening {next(EVENINGS)}"  # each example its own, in the test's database
    with Database() as db:  # NAPLEDGER_DB: SQLite, or PostgreSQL in CI's second pass
        with db.write() as tx:
            tx.new_session(evening, rules, PLAYERS[:players])
        for deal in deals:  # the evening: what cannot be dealt so is simply not dealt
            try:
                with db.write() as tx:
                    s = tx.session(evening)
                    asked = options(s, bids, deal)
                    s.record(asked) if asked.bid != "pass" else s.pass_()
            except NapError as refused:
                assert "database" not in str(refused), refused
        for kind, *args in corrections:
            with db.read() as tx:
                before = snapshot(tx.session(evening))
            try:
                with db.write() as tx:
                    correct(tx.session(evening), bids, kind, *args)
            except NapError as refused:  # a rule's reason, and nothing changed
                assert "database" not in str(refused), refused
                with db.read() as tx:
                    assert snapshot(tx.session(evening)) == before
            with db.read() as tx:
                assert tx.verify().problems == []


def test_the_issues_evening_comes_out_as_the_rules_say():
    rules = with_overrides(load_preset("classic"), ["empty_pot_ante=1"])
    with Database() as db:
        with db.write() as tx:
            tx.new_session("m1", rules, ["A", "B", "C"])
        with db.write() as tx:
            tx.session("m1").record(DealOptions(bid="nap", by="A", made=True))
        with db.write() as tx:
            tx.session("m1").pass_()
        with db.write() as tx:
            board = tx.session("m1").amend(1, DealOptions(bid="pass")).scoreboard
        assert (dict(board.chips), board.pot) == ({"A": -1, "B": -1, "C": -1}, 3)
        with db.write() as tx:
            board = tx.session("m1").void(1).scoreboard  # deal 2 antes into the empty pot again
        assert (dict(board.chips), board.pot) == ({"A": -1, "B": -1, "C": -1}, 3)
        with db.read() as tx:
            assert tx.verify().problems == []
