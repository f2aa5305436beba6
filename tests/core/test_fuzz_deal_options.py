"""Fuzz: any combination of `hand` options makes a deal that is scored, or is refused
with a NapError, nothing else; all without a database."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.core.errors import NapError
from napledger.core.ledger import changes_from, imbalance
from napledger.core.options import DealOptions, make_deal
from napledger.core.rules import Deal, list_presets, load_preset, score_deal
from napledger.core.rules.load import with_overrides

SEATED = ("Ann", "Anna", "Bob", "Zoë", "李雷", "Ed")
typed = st.sampled_from(["ann", "an", "ANNA", "b", "zoe", "李", "Ed ", "", " ", "pot", "Zed", "e"])
words = typed | st.text(max_size=6)
purchases = st.tuples(words, st.sampled_from([1, 3, 0, -1, 99]))


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
    buy=st.none() | st.lists(purchases, max_size=2),
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
    fresh = Deal(seated=seated, dealer=seated[0])
    everyone = (*seated, "Zed")  # one who has left the table
    options = DealOptions(
        bid=bid,
        by=by,
        tricks=tricks,
        made=made,
        failed=failed,
        revoke=revoke,
        dealer=dealer,
        peeps=None if peep is None else tuple(peep),
        buys=None if buy is None else tuple(buy),
    )
    try:
        deal = make_deal(options, rules, fresh, everyone)
        payments = score_deal(rules, deal, pot)
    except NapError:
        return
    assert imbalance(changes_from(payments)) == 0
    assert all(t.chips > 0 for t in payments)
