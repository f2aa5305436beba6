"""Property: whatever happens at the table, no chip is created or lost."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.core.errors import DealError
from napledger.core.ledger import POT, changes_from, imbalance
from napledger.core.rules import Deal, Rules, list_presets, load_preset, score_deal
from napledger.core.rules.scoring import replay

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]


@st.composite
def rules_with_settings(draw) -> Rules:
    rules = load_preset(draw(st.sampled_from(list_presets())))
    chips = st.integers(0, 5)
    toggles = tuple((key, draw(st.booleans())) for key, _ in rules.settings.toggles)
    settings_ = replace(
        rules.settings,
        dealer_sits_out_from=draw(st.none() | st.integers(2, 8)),
        pool=draw(st.booleans()),
        pool_ante=draw(chips),
        pool_fail_doubles=draw(st.booleans()),
        dealer_ante=draw(chips),
        peep_fee=draw(chips),
        purchase_fee=draw(chips),
        toggles=toggles,
    )
    # The house rules from the books (docs/rules.md), wherever the game has them.
    house = {
        "dealer_peeps": st.sampled_from(["free", "pays", "never"]),
        "revoke_fine": chips,
        "empty_pot_ante": chips,
        "pass_doubles": st.booleans(),
        "purchase_max_dealt": st.none() | st.integers(1, 7),
    }
    settings_ = replace(
        settings_,
        **{key: draw(value) for key, value in house.items() if rules.why_absent(key) is None},
    )
    return replace(rules, settings=settings_)


@st.composite
def deals(draw, rules: Rules) -> Deal:
    seated = tuple(NAMES[: draw(st.integers(rules.min_players, rules.max_players))])
    dealer = draw(st.sampled_from(seated))
    dealt_in = rules.dealt_in(seated, dealer)
    peeping = rules.why_absent("peep_fee") is None
    lookers = [p for p in dealt_in if p != dealer or rules.settings.dealer_peeps != "never"]
    peeps = tuple(
        draw(st.lists(st.sampled_from(lookers or [""]), unique=True, max_size=3 * peeping))
    )
    peeps = tuple(p for p in peeps if p)
    passed_out = draw(st.integers(0, 9)) == 0
    bidder = None if passed_out else draw(st.sampled_from(dealt_in))
    may_buy = {"anyone": list(dealt_in), "bidder": [bidder] if bidder else [], "nobody": []}
    buyers = draw(st.lists(st.sampled_from(may_buy[rules.buying] or [""]), unique=True, max_size=3))
    most_dealt = rules.settings.purchase_max_dealt
    if most_dealt is not None and len(dealt_in) > most_dealt:
        buyers = []
    left = rules.pack - rules.hand_size * len(dealt_in) - (1 if peeps else 0)
    buys_: list[tuple[str, int]] = []
    for p in buyers:
        cards = min(draw(st.integers(1, rules.most_bought)), left)
        if p and cards > 0:
            buys_.append((p, cards))
            left -= cards
    buys = tuple(buys_)
    if passed_out:
        return Deal(seated, dealer, peeps=peeps, buys=buys)
    bid = draw(st.sampled_from(rules.enabled_bids))
    kind = draw(st.sampled_from(["tricks", "made", "revoke"]))
    return Deal(
        seated,
        dealer,
        bid.name,
        bidder,
        tricks=draw(st.integers(0, rules.hand_size)) if kind == "tricks" else None,
        made=draw(st.booleans()) if kind == "made" else None,
        revoker=draw(st.sampled_from(dealt_in)) if kind == "revoke" else None,
        peeps=peeps,
        buys=buys,
    )


@st.composite
def evenings(draw):
    rules = draw(rules_with_settings())
    return rules, draw(st.lists(deals(rules), min_size=1, max_size=25)), draw(st.integers(0, 50))


@settings(max_examples=250, deadline=None)
@given(evenings())
def test_every_deal_sums_to_zero_and_the_pot_never_goes_negative(evening):
    rules, deal_list, opening = evening
    pot = opening
    for scored in replay(rules, deal_list, opening):
        entries = changes_from(scored.payments)
        assert imbalance(entries) == 0
        assert all(t.chips > 0 and t.payer != t.payee for t in scored.payments)
        pot += entries.get(POT, 0)
        assert pot == scored.pot_after >= 0


@settings(max_examples=100, deadline=None)
@given(evenings())
def test_only_the_bidder_and_a_revoker_deal_with_each_other_on_a_revoke(evening):
    rules, deal_list, opening = evening
    for deal in deal_list:
        if deal.revoker and deal.revoker != deal.bidder:
            bid_payments = [
                t for t in score_deal(rules, deal, opening) if POT not in (t.payer, t.payee)
            ]
            assert [(t.payer, t.payee) for t in bid_payments] == [(deal.revoker, deal.bidder)]


@settings(max_examples=300, deadline=None)
@given(rules_with_settings(), st.data())
def test_a_player_not_dealt_in_cannot_bid_or_revoke(rules, data):
    seated = tuple(NAMES[: rules.max_players])
    dealer = seated[0]
    if rules.dealt_in(seated, dealer) == seated:
        return
    bid = rules.enabled_bids[-1].name
    for deal in (
        Deal(seated, dealer, bid, dealer, made=True),
        Deal(seated, dealer, bid, seated[1], revoker=dealer),
    ):
        try:
            score_deal(rules, deal, 0)
        except DealError as exc:
            assert "sits out" in str(exc)
        else:
            raise AssertionError("a sitting-out dealer was allowed to play")


def expected_bidder_net(rules: Rules, deal: Deal) -> int:
    """The stake sentences of docs/rules.md, written out again independently of the scorer."""
    bid = next(b for b in rules.bids if b.name == deal.bid)
    opponents = len(deal.seated) - 1
    if deal.revoker is not None and deal.revoker != deal.bidder:
        return bid.win * opponents  # the revoker alone pays for everyone
    if deal.revoker == deal.bidder:
        made = False
    elif deal.tricks is not None:
        made = deal.tricks == 0 if bid.misere else deal.tricks >= bid.tricks
    else:
        made = bool(deal.made)
    return bid.win * opponents if made else -(bid.lose * opponents + bid.fail_pot)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_bidder_wins_or_loses_exactly_the_stake_table(data):
    rules = data.draw(rules_with_settings())
    # No pot in play: only the stake table decides the bidder's money.
    plain = replace(
        rules,
        settings=replace(
            rules.settings,
            pool=False,
            dealer_ante=0,
            peep_fee=0,
            purchase_fee=0,
            pool_fail_doubles=False,
            revoke_fine=0,
            empty_pot_ante=0,
        ),
    )
    deal = data.draw(deals(plain))
    if deal.bid is None:
        return
    net = changes_from(score_deal(plain, deal, 0))
    assert net.get(deal.bidder, 0) == expected_bidder_net(plain, deal)
    if deal.revoker and deal.revoker != deal.bidder:
        assert net[deal.revoker] == -expected_bidder_net(plain, deal)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_deal_after_a_pass_pays_exactly_twice_between_players_and_the_same_to_the_pot(data):
    """pass_doubles (docs/rules.md): every stake between players twice, the pot untouched."""
    rules = data.draw(rules_with_settings())
    if rules.why_absent("pass_doubles") is not None:
        return
    rules = replace(rules, settings=replace(rules.settings, pass_doubles=True))
    deal = data.draw(deals(rules))
    pot = data.draw(st.integers(0, 50))
    plain = score_deal(rules, deal, pot, after_pass=False)
    doubled = score_deal(rules, deal, pot, after_pass=True)

    def between_players(payments):
        return [(t.payer, t.payee, t.chips) for t in payments if POT not in (t.payer, t.payee)]

    def with_the_pot(payments):
        return [(t.payer, t.payee, t.chips) for t in payments if POT in (t.payer, t.payee)]

    assert between_players(doubled) == [(a, b, 2 * c) for a, b, c in between_players(plain)]
    assert with_the_pot(doubled) == with_the_pot(plain)
