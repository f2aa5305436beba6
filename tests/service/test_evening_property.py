"""Random evenings through the session API: after every step the money still adds up.

Deals, undo, amend, void (of any deal: the store scores again only the deals after it),
joins and leaves, close (split, carry or to a player), reopen, more deals and another
close, in any order, each in a transaction of its own on a fresh SQLite file: every
deal's and every close's postings sum to zero across the players and the pot, what the
ledger stores is what the rules derive, the scoreboard is the sum of the live postings,
a refused step changes nothing, and `verify` finds the evening clean.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import event, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from napledger.core.errors import NapError
from napledger.core.ledger import POT, balances, changes_from, imbalance
from napledger.core.options import DealOptions
from napledger.core.rules import load_preset
from napledger.core.rules.load import with_overrides
from napledger.service.api import Database, SessionAPI

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve"]
VARIANTS = {
    "russian": lambda: load_preset("russian"),  # the dealer's ante and failed bids feed the box
    "classic with a pool": lambda: with_overrides(load_preset("classic"), ["pool=yes"]),
}

played = st.tuples(
    st.sampled_from(["3", "4", "nap"]),
    st.integers(0, 4),  # the bidder, by seat
    st.booleans(),  # made
)
deal = st.tuples(st.just("deal"), played)
amend = st.tuples(st.just("amend"), st.integers(0, 20), played)  # any live deal, replayed
step = st.one_of(  # deals and amends drawn more often than the rest
    deal,
    deal,
    deal,
    st.tuples(st.just("pass")),
    st.tuples(st.just("undo")),
    amend,
    amend,
    st.tuples(st.just("void"), st.integers(0, 20)),  # any live deal
    st.tuples(
        st.just("join"), st.sampled_from(["Fay", "Gus", "Ann"]), st.none() | st.integers(0, 4)
    ),
    st.tuples(st.just("leave"), st.integers(0, 4)),
    st.tuples(st.just("close"), st.sampled_from(["split", "carry", 0, 1, 2, 3, 4])),
    st.tuples(st.just("reopen")),
)


def nonzero(entries):
    return {account: chips for account, chips in entries.items() if chips}


def take(s: SessionAPI, kind: str, *args) -> object:
    seated = s.scoreboard().seating

    def options(bid: str, by: int, made: bool) -> DealOptions:
        return DealOptions(bid=bid, by=seated[by % len(seated)], made=made, failed=not made)

    if kind == "deal":
        return s.record(options(*args[0])).scoreboard
    if kind == "pass":
        return s.pass_().scoreboard
    if kind == "undo":
        return s.undo().scoreboard
    if kind == "amend":
        live = [d.number for d in s.history(with_roster=False).deals if d.live]
        which, deal = args
        return s.amend(live[which % len(live)] if live else 1, options(*deal)).scoreboard
    if kind == "void":
        live = [d.number for d in s.history(with_roster=False).deals if d.live]
        return s.void(live[args[0] % len(live)] if live else 1).scoreboard
    if kind == "join":
        name, after = args
        return s.join(name, None if after is None else seated[after % len(seated)]).scoreboard
    if kind == "leave":
        return s.leave(seated[args[0] % len(seated)]).scoreboard
    if kind == "close":
        (to,) = args
        return s.close(to if isinstance(to, str) else seated[to % len(seated)]).scoreboard
    return s.reopen()


def snapshot(s: SessionAPI):
    history = s.history()
    return (
        s.scoreboard(),
        [(d.id, d.status, dict(d.changes), d.stored_pot_after) for d in history.deals],
        list(history.closes),
    )


def check_the_money(s: SessionAPI) -> None:
    history = s.history()
    board = history.scoreboard
    live = [d for d in history.deals if d.live]
    for d in history.deals:
        assert imbalance(d.changes) == 0, d
        assert nonzero(d.changes) == nonzero(changes_from(d.payments)), d
        assert d.changes == {} or d.live, d  # a voided or replaced deal keeps no entries
    for close in history.closes:
        assert imbalance(close.shares) == 0, close
    closes = [c for c in history.closes if c.live]
    assert len(closes) == (1 if board.session.closed else 0)
    total = balances([d.changes for d in live] + [c.shares for c in closes])
    assert nonzero(dict(board.chips)) == nonzero({a: c for a, c in total.items() if a != POT})
    assert board.pot == board.session.opening_pot + total.get(POT, 0)
    assert sum(board.chips.values()) + board.pot == board.session.opening_pot
    assert board.hands == len(live)
    # The balances the database keeps are the entries' sums, account by account.
    kept = s.book.db.execute(
        text("SELECT account, chips FROM balances WHERE session_id = :s"), {"s": board.session.id}
    ).all()
    summed = s.book.db.execute(
        text("SELECT account, SUM(chips) FROM entries WHERE session_id = :s GROUP BY account"),
        {"s": board.session.id},
    ).all()
    assert sorted(kept) == sorted(summed)
    dealt = board.session.opening_pot + balances(d.changes for d in live).get(POT, 0)
    for close in closes:  # it took the pot the deals left, and left it only when carried
        assert close.pot == dealt
        assert board.pot == (dealt if close.pot_to == "carry" or dealt <= 0 else 0)


@settings(max_examples=15, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    players=st.integers(3, 5),
    steps=st.lists(step, min_size=1, max_size=20),
)
def test_every_step_of_an_evening_keeps_the_money_exact(variant, players, steps):
    with tempfile.TemporaryDirectory() as folder, Database(str(Path(folder, "nap.db"))) as db:
        with db.write() as tx:
            tx.new_session("evening", VARIANTS[variant](), PLAYERS[:players])
        for kind, *args in steps:
            with db.read() as tx:
                before = snapshot(tx.session("evening"))
            try:
                with db.write() as tx:
                    told = take(tx.session("evening"), kind, *args)
                event(f"{kind} done")
                with db.read() as tx:  # what the change showed is what is now stored
                    assert told == tx.session("evening").scoreboard()
            except NapError as refused:
                event(f"{kind} refused: {str(refused)[:40]}")  # --hypothesis-show-statistics
                with db.read() as tx:  # refused: the database is exactly as before
                    assert snapshot(tx.session("evening")) == before
            with db.read() as tx:
                check_the_money(tx.session("evening"))
        with db.read() as tx:
            assert tx.verify().problems == []
