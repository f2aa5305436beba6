"""Fuzz: any combination of `hand` options is scored or refused with a NapError, nothing else."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.cli.app import build_deal
from napledger.errors import NapError
from napledger.ledger import imbalance, postings
from napledger.rules import list_presets, load_preset, score_deal
from napledger.rules.load import with_overrides

SEATED = ("Ann", "Anna", "Bob", "Zoë", "李雷", "Ed")
typed = st.sampled_from(["ann", "an", "ANNA", "b", "zoe", "李", "Ed ", "", " ", "pot", "Zed", "e"])
words = typed | st.text(max_size=6)
purchases = st.tuples(words, st.sampled_from(["1", "3", "0", "x", "-1", "99"])).map("=".join)


class FakeBook:
    """What build_deal asks of a book, without a database."""

    def __init__(self, rules, seated, dealer):
        self._rules, self._seated, self._dealer = rules, seated, dealer

    def rules(self, _row):
        return self._rules

    def seating(self, _row):
        return self._seated

    def dealer_now(self, _row):
        return self._dealer

    def everyone(self, _row):
        return (*self._seated, "Zed")  # one who has left the table


@settings(max_examples=300, deadline=None)
@given(
    preset=st.sampled_from(list_presets()),
    toggles=st.lists(st.sampled_from(["two=on", "pool=on", "dealer_ante=2", "misere=off"])),
    players=st.integers(3, 6),
    bid=st.none() | st.sampled_from(["nap", "3", "two", "misère", "mis", "pass", "9", "0"]) | words,
    by=st.none() | words,
    tricks=st.none() | st.integers(-3, 15),
    made=st.booleans(),
    failed=st.booleans(),
    revoke=st.none() | words,
    dealer=st.none() | words,
    peep=st.none() | st.lists(words, max_size=3),
    buy=st.none() | st.lists(purchases | words, max_size=2),
    pot=st.integers(0, 50),
)
def test_any_hand_options(
    preset, toggles, players, bid, by, tricks, made, failed, revoke, dealer, peep, buy, pot
):
    try:
        rules = with_overrides(load_preset(preset), toggles)
    except NapError:
        return
    seated = SEATED[: max(rules.min_players, min(players, rules.max_players))]
    book = FakeBook(rules, seated, seated[0])
    try:
        deal = build_deal(
            book, None, None, bid, by, tricks, made, failed, revoke, dealer, peep, buy
        )
        transfers = score_deal(rules, deal, pot)
    except NapError:
        return
    assert imbalance(postings(transfers)) == 0
    assert all(t.chips > 0 for t in transfers)
