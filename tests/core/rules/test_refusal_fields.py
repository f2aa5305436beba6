"""A refused deal says which part of it is wrong, so the page can say why beside the
field that was tapped (docs/rules.md: who may bid, revoke, peep or buy)."""

from __future__ import annotations

import pytest

from napledger.core.errors import DealError
from napledger.core.rules import load_preset
from napledger.core.rules.scoring import Deal, check_deal

FOUR = ("A", "B", "C", "D")
SIX = ("A", "B", "C", "D", "E", "F")

CASES = {
    "unknown bid": ("classic", Deal(FOUR, "A", "seven", "B", tricks=3), "bid"),
    "no bidder": ("classic", Deal(FOUR, "A", "three", None, tricks=3), "by"),
    "bidder sits out as dealer": ("classic", Deal(SIX, "A", "three", "A", made=True), "by"),
    "tricks out of range": ("classic", Deal(FOUR, "A", "three", "B", tricks=6), "result"),
    "no outcome": ("classic", Deal(FOUR, "A", "three", "B"), "result"),
    "revoker not dealt in": (
        "classic",
        Deal(SIX, "A", "three", "B", revoker="A"),
        "revoke",
    ),
    "a buyer who is not the bidder": (
        "russian",
        Deal(FOUR, "A", "three", "B", made=True, buys=(("C", 1),)),
        "buy",
    ),
    "the dealer not seated": ("classic", Deal(FOUR, "Z", "three", "B", made=True), "dealer"),
}


@pytest.mark.parametrize(("game", "deal", "field"), CASES.values(), ids=CASES.keys())
def test_a_refusal_names_the_part_of_the_deal_it_is_about(game, deal, field):
    with pytest.raises(DealError) as refused:
        check_deal(load_preset(game), deal)
    assert refused.value.field == field, str(refused.value)


def test_a_deal_that_cannot_be_at_all_names_no_field():
    with pytest.raises(DealError) as refused:
        check_deal(load_preset("classic"), Deal(("A", "A", "B"), "A", "three", "B", made=True))
    assert refused.value.field is None
