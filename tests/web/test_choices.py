"""Who the deal form offers for each role, decided from the rules' data (docs/rules.md:
the dealer sitting out, peeping, buying), tested on the pure function the page uses."""

from __future__ import annotations

from napledger.core.rules import load_preset
from napledger.core.rules.load import with_overrides
from napledger.web.calls import choices

FOUR = ("A", "B", "C", "D")
SIX = ("A", "B", "C", "D", "E", "F")


def test_russian_offers_no_peep_and_one_box_the_bidders():
    # Example 15: only the bidder buys, one card; nobody peeps; the dealer always plays.
    c = choices(load_preset("russian"), SIX[:5], "A")
    assert (c.dealt_in, c.sits_out, c.peepers, c.buyers) == (SIX[:5], (), (), ())
    assert c.bidder_buys and c.most_bought == 1


def test_classic_at_six_the_dealer_sits_out_and_nobody_buys_past_four_dealt_in():
    c = choices(load_preset("classic"), SIX, "C")
    assert c.sits_out == ("C",) and "C" not in c.dealt_in + c.peepers
    assert c.buyers == () and not c.bidder_buys  # five dealt in: purchase_max_dealt is 4
    small = choices(load_preset("classic"), FOUR, "C")
    assert small.buyers == FOUR and small.peepers == FOUR  # the dealer peeps free


def test_a_dealer_who_may_never_look_is_not_offered_a_peep():
    rules = with_overrides(load_preset("classic"), ["dealer_peeps=never"])
    assert choices(rules, FOUR, "B").peepers == ("A", "C", "D")


def test_seven_card_offers_neither():
    c = choices(load_preset("seven-card"), FOUR, "A")
    assert (c.peepers, c.buyers, c.bidder_buys) == ((), (), False)
