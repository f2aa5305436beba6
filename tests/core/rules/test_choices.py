"""Who the deal form offers for each role, decided from the rules' data (docs/rules.md:
the dealer sitting out, peeping, buying), tested on the core function the page, `play` and the checks use."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.core.errors import DealError, NapError
from napledger.core.rules import Deal, list_presets, load_preset
from napledger.core.rules.choices import choices
from napledger.core.rules.load import with_overrides
from napledger.core.rules.scoring import check_deal

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


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(list_presets()),
    extra=st.sampled_from(["", "purchase_max_dealt=4", "dealer_peeps=never"]),
    size=st.integers(3, 7),
    dealer=st.integers(0, 6),
    who=st.integers(0, 6),
    cards=st.integers(1, 2),
)
def test_the_checks_allow_exactly_what_the_choices_offer(preset, extra, size, dealer, who, cards):
    """A passed-out deal with one peep, or one purchase, is refused exactly when the
    player is not among those the choices offer for it."""
    try:
        rules = with_overrides(load_preset(preset), [extra] if extra else [])
    except NapError:
        return
    seated = SEVEN[: max(rules.min_players, min(size, rules.max_players))]
    dealer_, player = seated[dealer % len(seated)], seated[who % len(seated)]
    c = choices(rules, seated, dealer_)
    peeped = Deal(seated, dealer_, peeps=(player,))
    assert allowed(rules, peeped) == (player in c.peepers)
    if c.bidder_buys:
        return  # the bidder's purchase needs a bid: the page's one box, tested above
    bought = Deal(seated, dealer_, buys=((player, cards),))
    assert allowed(rules, bought) == (player in c.buyers and cards <= c.most_bought)


SEVEN = ("A", "B", "C", "D", "E", "F", "G")


def allowed(rules, deal) -> bool:
    try:
        check_deal(rules, deal)
    except DealError:
        return False
    return True
