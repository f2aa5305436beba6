"""The server's kept history: extended deal by deal, it is the history a full reading gives.

Random evenings (deals, passes with `pass_doubles`, undo, amend, join, leave, close,
reopen), the kept history read after some of the steps: every time, its scored deals,
running balances, scoreboard and settlement equal what `history()` and `settlement()`
derive from the whole session, to the chip and the penny, and a step that only added
deals was scored by itself, not by reading the evening again.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.core.errors import NapError
from napledger.core.ledger import changes_from, imbalance
from napledger.core.options import DealOptions
from napledger.core.rules import load_preset
from napledger.core.rules.load import with_overrides
from napledger.service.api import Database, SessionAPI
from napledger.service.kept import KeptHistory
from tests.service.test_evening_property import take as take_step

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Flo"]
VARIANTS = {
    # Passed-out deals double the next one: the kept history must know the last was passed.
    "classic, a pool, passes double": lambda: with_overrides(
        load_preset("classic"), ["pool=yes", "pass_doubles=yes"]
    ),
    "russian": lambda: load_preset("russian"),  # the dealer's ante and failed bids feed the box
}

played = st.tuples(st.sampled_from(["3", "4", "nap"]), st.integers(0, 5), st.booleans())
step = st.tuples(
    st.one_of(
        st.tuples(st.just("deal"), played),
        st.tuples(st.just("deal"), played),
        st.tuples(st.just("deal"), played),
        st.tuples(st.just("pass")),
        st.tuples(st.just("pass")),
        st.tuples(st.just("undo")),
        st.tuples(st.just("amend"), st.integers(0, 30), played),
        st.tuples(st.just("join"), st.integers(0, 5)),
        st.tuples(st.just("leave"), st.integers(0, 5)),
        st.tuples(st.just("close"), st.sampled_from(["split", "carry", 0])),
        st.tuples(st.just("reopen")),
    ),
    st.booleans(),  # does the server look after this step (else after a later one)?
)


def take(s: SessionAPI, kind: str, *args) -> None:
    if kind == "join":
        s.join(PLAYERS[args[0]])
    elif kind == "leave":
        s.leave(PLAYERS[args[0]])
    else:  # the steps of the evenings whose money is checked
        take_step(s, kind, *args)


def scored(history):
    return [
        (d.id, d.label, d.status, d.deal, d.pot_before, d.pot_after, d.payments, dict(d.changes))
        for d in history.deals
    ]


def assert_kept_is_full(kept: KeptHistory, s: SessionAPI) -> None:
    history, settlement = kept.read(s)
    full = s.history()
    assert scored(history) == scored(full)
    assert history.running == full.running
    assert history.timeline == full.timeline
    assert history.scoreboard == full.scoreboard
    assert settlement == s.settlement()  # Decimal money, compared exactly
    assert list(kept.revisions()) == s.deals_since(0)
    for d in history.deals:  # and the money still adds up, deal by deal
        assert imbalance(changes_from(d.payments)) == 0


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    players=st.integers(3, 5),
    steps=st.lists(step, min_size=1, max_size=25),
)
def test_a_kept_history_extended_by_each_change_equals_a_full_reading(variant, players, steps):
    kept = KeptHistory()
    with tempfile.TemporaryDirectory() as folder, Database(str(Path(folder, "nap.db"))) as db:
        with db.write() as tx:
            tx.new_session("evening", VARIANTS[variant](), PLAYERS[:players])
        with db.read() as tx:
            assert_kept_is_full(kept, tx.session("evening"))
        only_deals = True  # since the server last looked, were deals all that was added?
        for (kind, *args), look in steps:
            try:
                with db.write() as tx:
                    take(tx.session("evening"), kind, *args)
                only_deals = only_deals and kind in ("deal", "pass")
            except NapError:
                pass  # refused: nothing changed
            if look:
                reads = kept.full_reads
                with db.read() as tx:
                    assert_kept_is_full(kept, tx.session("evening"))
                if only_deals:
                    assert kept.full_reads == reads  # scored the new deals only
                only_deals = True


def test_a_long_evening_is_read_once_then_extended(tmp_path):
    kept = KeptHistory()
    with Database(str(tmp_path / "nap.db")) as db:
        with db.write() as tx:
            tx.new_session("evening", load_preset("classic"), PLAYERS[:4])
        for n in range(30):
            with db.write() as tx:
                tx.session().record(
                    DealOptions(bid="3", by=PLAYERS[n % 4], made=n % 3 > 0, failed=n % 3 == 0)
                )
            with db.read() as tx:
                history, _ = kept.read(tx.session())
            assert history.scoreboard.hands == n + 1
        assert kept.full_reads == 1
        with db.write() as tx:
            tx.session().undo()
        with db.read() as tx:  # an undo changes what was kept: read afresh
            assert_kept_is_full(kept, tx.session())
        assert kept.full_reads == 2


def test_a_history_handed_out_stays_as_it_was_while_the_kept_one_grows(tmp_path):
    # The kept lists are handed out uncopied (a page's board reads them after the lock is
    # let go): a later deal, or a fresh reading after an undo, must not change them.
    kept = KeptHistory()
    with Database(str(tmp_path / "nap.db")) as db:
        with db.write() as tx:
            tx.new_session("evening", load_preset("classic"), PLAYERS[:4])
            for n in range(3):
                tx.session("evening").record(DealOptions(bid="3", by=PLAYERS[n], made=True))
        with db.read() as tx:
            before, _ = kept.read(tx.session("evening"))
            revisions = kept.revisions()
            full = tx.session("evening").history()
        for change in ("record", "undo", "record"):
            with db.write() as tx:
                s = tx.session("evening")
                s.undo() if change == "undo" else s.record(
                    DealOptions(bid="3", by="Ann", made=True)
                )
            with db.read() as tx:
                kept.read(tx.session("evening"))
        assert scored(before) == scored(full)
        assert before.running == full.running
        assert list(revisions) == [(d.id, d.label) for d in full.deals]
        assert before.deals == tuple(full.deals) and before.deals[-1] == full.deals[-1]
        assert list(reversed(before.deals)) == list(reversed(full.deals))
        assert before.deals[1:] == tuple(full.deals[1:])
        with db.read() as tx:
            assert len(kept.read(tx.session("evening"))[0].deals) == 5  # 3, one undone, 2 more
