"""The worked examples of docs/rules.md, chip for chip (each test names its number)."""

from dataclasses import replace
from decimal import Decimal

import pytest

from napledger.core.errors import DealError
from napledger.core.ledger import POT, balances, changes_from
from napledger.core.rules import Deal, load_preset, score_deal
from napledger.core.rules.load import with_overrides
from napledger.core.rules.scoring import close_payments, replay

FIVE = ("A", "B", "C", "D", "E")


def net(rules, deal, pot=0):
    return {k: v for k, v in changes_from(score_deal(rules, deal, pot)).items() if v}


@pytest.fixture
def classic():
    return load_preset("classic")


def test_example_1_nap_made_and_failed(classic):
    made = Deal(FIVE, "E", "nap", "A", tricks=5)
    assert net(classic, made) == {"A": 40, "B": -10, "C": -10, "D": -10, "E": -10}
    failed = Deal(FIVE, "E", "nap", "A", tricks=4)
    assert net(classic, failed) == {"A": -20, "B": 5, "C": 5, "D": 5, "E": 5}


def test_example_2_extra_tricks_earn_nothing(classic):
    assert net(classic, Deal(FIVE, "A", "three", "B", tricks=4)) == {
        "B": 12, "A": -3, "C": -3, "D": -3, "E": -3,
    }  # fmt: skip


def test_example_3_misere_with_a_trick_fails(classic):
    assert net(classic, Deal(FIVE, "B", "misère", "C", tricks=1)) == {
        "C": -12, "A": 3, "B": 3, "D": 3, "E": 3,
    }  # fmt: skip


def test_example_4_opponent_revoke_pays_for_everyone(classic):
    assert net(classic, Deal(FIVE, "C", "four", "D", revoker="E")) == {"E": -16, "D": 16}


def test_example_5_bidder_revoke_settles_as_failed(classic):
    assert net(classic, Deal(FIVE, "D", "wellington", "A", revoker="A")) == {
        "A": -40, "B": 10, "C": 10, "D": 10, "E": 10,
    }  # fmt: skip


def test_examples_1_to_5_running_totals(classic):
    deals = [
        Deal(FIVE, "E", "nap", "A", tricks=5),
        Deal(FIVE, "A", "three", "B", tricks=4),
        Deal(FIVE, "B", "misère", "C", tricks=1),
        Deal(FIVE, "C", "four", "D", revoker="E"),
        Deal(FIVE, "D", "wellington", "A", revoker="A"),
    ]
    totals = balances(changes_from(s.payments) for s in replay(classic, deals))
    assert {k: v for k, v in totals.items() if k != POT} == {
        "A": 0, "B": 15, "C": -15, "D": 16, "E": -16,
    }  # fmt: skip


def test_example_6_sitting_out_dealer_pays_like_the_others(classic):
    six = ("A", "B", "C", "D", "E", "F")
    assert net(classic, Deal(six, "F", "four", "A", made=True)) == {
        "A": 20, "B": -4, "C": -4, "D": -4, "E": -4, "F": -4,
    }  # fmt: skip


def test_example_7_seven_card_six_failed_pays_half():
    rules = load_preset("seven-card")
    deal = Deal(("A", "B", "C", "D"), "D", "six", "A", tricks=5)
    assert net(rules, deal) == {"A": -27, "B": 9, "C": 9, "D": 9}


def test_example_8_russian_treasure_box():
    rules = load_preset("russian")
    four = ("A", "B", "C", "D")
    deals = [
        Deal(four, "A", "three", "B", made=True),
        Deal(four, "B", "four", "C", tricks=2),
        Deal(four, "C", "napoleon", "D", made=False),
        Deal(four, "D", "napoleon", "A", made=True),
    ]  # fmt: skip
    scored = replay(rules, deals)
    assert [s.pot_after for s in scored] == [1, 6, 14, 0]
    totals = balances(changes_from(s.payments) for s in scored)
    assert totals == {"A": 35, "B": 12, "C": -20, "D": -27, POT: 0}
    money = {p: c * Decimal(5) for p, c in totals.items() if p != POT}
    assert money == {"A": 175, "B": 60, "C": -100, "D": -135}


def test_example_9_pool_antes_and_nap_takes_the_pot(classic):
    rules = with_overrides(classic, ["pool=on"])
    four = ("A", "B", "C", "D")
    deals = [Deal(four, "D", "three", "A", made=True), Deal(four, "A", "nap", "B", made=True)]
    scored = replay(rules, deals)
    first = changes_from(scored[0].payments)
    assert first == {"A": 8, "B": -4, "C": -4, "D": -4, POT: 4}
    totals = balances(changes_from(s.payments) for s in scored)
    assert totals == {"A": -3, "B": 33, "C": -15, "D": -15, POT: 0}


def test_pool_fail_doubles_pays_the_pot_its_own_amount(classic):
    rules = with_overrides(classic, ["pool=on", "pool_fail_doubles=on"])
    four = ("A", "B", "C", "D")
    scored = replay(rules, [Deal(four, "D", "nap", "A", made=False)], pot=6)
    # 6 carried + 4 antes = 10 in the pot; failing nap pays 10 more.
    assert scored[0].pot_after == 20
    assert changes_from(scored[0].payments)["A"] == -1 - 15 - 10


def test_passed_out_deal_posts_only_antes():
    rules = load_preset("russian")
    assert net(rules, Deal(("A", "B"), "B")) == {"B": -1, POT: 1}


def test_peeps_and_purchases_go_to_the_pot(classic):
    # Buying at five dealt in needs purchase_max_dealt lifted (docs/rules.md).
    anyone_buys = replace(classic, settings=replace(classic.settings, purchase_max_dealt=None))
    deal = Deal(FIVE, "A", "three", "B", made=True, peeps=("C", "D"), buys=(("E", 2),))
    result = net(anyone_buys, deal)
    assert result[POT] == 1 + 1 + 2
    assert result["E"] == -3 - 2


def test_close_split_gives_odd_chips_from_the_first_seat():
    assert [(t.payee, t.chips) for t in close_payments(7, ("A", "B", "C"), "split")] == [
        ("A", 3), ("B", 2), ("C", 2),
    ]  # fmt: skip
    assert [(t.payee, t.chips) for t in close_payments(2, ("A", "B", "C"), "split")] == [
        ("A", 1), ("B", 1),
    ]  # fmt: skip
    assert close_payments(9, ("A", "B"), "carry") == []
    assert [(t.payee, t.chips) for t in close_payments(9, ("A", "B"), "B")] == [("B", 9)]


def test_a_pot_that_would_overflow_is_refused():
    from napledger.core.errors import DealError

    rules = load_preset("russian")
    failed = Deal(("A", "B"), "A", "napoleon", "A", made=False)
    with pytest.raises(DealError, match="close this session"):
        replay(rules, [failed] * 45)


FOUR = ("A", "B", "C", "D")


def test_example_12_nap_takes_a_pot_of_peep_fees(classic):
    deals = [
        Deal(FOUR, "A", "three", "B", made=True, peeps=("C", "D")),
        Deal(FOUR, "B", "nap", "A", made=True),
    ]
    scored = replay(classic, deals)
    assert changes_from(scored[0].payments) == {"A": -3, "B": 9, "C": -4, "D": -4, POT: 2}
    assert changes_from(scored[1].payments) == {"A": 32, "B": -10, "C": -10, "D": -10, POT: -2}
    totals = balances(changes_from(s.payments) for s in scored)
    assert totals == {"A": 29, "B": -1, "C": -14, "D": -14, POT: 0}


def test_example_13_a_failed_nap_doubles_a_pot_of_fees(classic):
    rules = with_overrides(classic, ["pool_fail_doubles=on"])
    deals = [
        Deal(FOUR, "A", "three", "B", made=True, peeps=("D",), buys=(("C", 2),)),
        Deal(FOUR, "B", "nap", "A", made=False),
    ]
    scored = replay(rules, deals)
    assert [s.pot_after for s in scored] == [3, 6]
    totals = balances(changes_from(s.payments) for s in scored)
    assert totals == {"A": -21, "B": 14, "C": 0, "D": 1, POT: 6}


def test_example_14_five_is_not_napoleon():
    rules = load_preset("russian")
    deals = [
        Deal(FOUR, "A", "five", "B", made=True),
        Deal(FOUR, "B", "five", "C", made=False),
        Deal(FOUR, "C", "napoleon", "D", made=True),
    ]
    scored = replay(rules, deals)
    assert [s.pot_after for s in scored] == [1, 7, 0]
    totals = balances(changes_from(s.payments) for s in scored)
    assert totals == {"A": -6, "B": 14, "C": -31, "D": 23, POT: 0}


def test_example_15_only_the_russian_bidder_buys_one_card_free():
    rules = load_preset("russian")
    bought = Deal(FOUR, "A", "three", "B", made=True, buys=(("B", 1),))
    assert net(rules, bought) == {"A": -4, "B": 9, "C": -3, "D": -3, POT: 1}
    for wrong in (
        Deal(FOUR, "A", "three", "B", made=True, buys=(("C", 1),)),
        Deal(FOUR, "A", "three", "B", made=True, buys=(("B", 2),)),
        Deal(FOUR, "A", "three", "B", made=True, peeps=("C",)),
    ):
        with pytest.raises(DealError):
            score_deal(rules, wrong, 0)


def test_example_16_six_takes_a_pot_of_dealers_antes():
    rules = with_overrides(load_preset("seven-card"), ["dealer_ante=1"])
    made = replay(rules, [Deal(FOUR, "A"), Deal(FOUR, "B", "six", "C", made=True)])
    assert changes_from(made[1].payments)["C"] == 3 * 18 + 2
    assert made[1].pot_after == 0
    rules = with_overrides(rules, ["pool_fail_doubles=on"])
    failed = replay(rules, [Deal(FOUR, "A"), Deal(FOUR, "B", "six", "C", made=False)])
    assert changes_from(failed[1].payments)["C"] == -3 * 9 - 2
    assert failed[1].pot_after == 4


def test_example_17_an_empty_pot_is_opened_by_everyone():
    rules = with_overrides(load_preset("classic"), ["empty_pot_ante=2"])
    scored = replay(
        rules,
        [
            Deal(FOUR, "A", "nap", "B", made=True),
            Deal(FOUR, "B", "three", "C", made=False),
            Deal(FOUR, "C"),  # the pot holds 8: nobody opens it again
        ],
    )
    assert changes_from(scored[0].payments) == {"A": -12, "B": 36, "C": -12, "D": -12, POT: 0}
    assert changes_from(scored[1].payments) == {"A": 1, "B": 1, "C": -11, "D": 1, POT: 8}
    assert scored[2].payments == () and scored[2].pot_after == 8


def test_example_18_the_deal_after_a_pass_pays_double():
    rules = with_overrides(load_preset("classic"), ["pass_doubles=on"])
    scored = replay(
        rules,
        [
            Deal(FOUR, "A"),
            Deal(FOUR, "B", "four", "A", made=True),
            Deal(FOUR, "C", "three", "B", made=True),
        ],
    )
    assert changes_from(scored[1].payments) == {"A": 24, "B": -8, "C": -8, "D": -8}
    assert changes_from(scored[2].payments) == {"A": -3, "B": 9, "C": -3, "D": -3}


def test_example_19_a_revoker_also_pays_the_fine_into_the_pool():
    rules = with_overrides(load_preset("classic"), ["pool=on", "revoke_fine=5"])
    deal = Deal(FOUR, "A", "four", "B", revoker="D")
    assert net(rules, deal) == {"A": -1, "B": 11, "C": -1, "D": -18, POT: 9}
    own = Deal(FOUR, "A", "four", "B", revoker="B")  # a revoking bidder pays it too
    assert net(rules, own) == {"A": 3, "B": -18, "C": 3, "D": 3, POT: 9}


def test_example_20_the_dealer_looks_at_the_floater_free(classic):
    deal = Deal(FIVE, "A", "three", "B", made=True, peeps=("A", "C"))
    assert net(classic, deal) == {"A": -3, "B": 12, "C": -4, "D": -3, "E": -3, POT: 1}
    pays = with_overrides(classic, ["dealer_peeps=pays"])
    assert net(pays, deal) == {"A": -4, "B": 12, "C": -4, "D": -3, "E": -3, POT: 2}
    never = with_overrides(classic, ["dealer_peeps=never"])
    with pytest.raises(DealError, match="dealer A may not look at the floater"):
        score_deal(never, deal, 0)


def test_buying_says_which_rule_limits_the_table_and_what_the_pack_has_left(classic):
    five = Deal(FIVE, "A", "three", "B", made=True, buys=(("C", 1),))
    with pytest.raises(DealError, match=r"at most 4 dealt in, not 5 .*purchase_max_dealt"):
        score_deal(classic, five, 0)
    anyone = with_overrides(classic, ["purchase_max_dealt=off", "dealer_sits_out_from=off"])
    seven = ("A", "B", "C", "D", "E", "F", "G")  # seven dealt in: 52 - 35 = 17 cards left
    greedy = tuple((p, 3) for p in seven[1:])  # 18 cards
    with pytest.raises(DealError, match="the pack has 17 cards left after the deal, not 18"):
        score_deal(anyone, Deal(seven, "A", "three", "B", made=True, buys=greedy), 0)
    with pytest.raises(DealError, match="1 to 5 cards, not 6"):  # at most a hand's worth
        score_deal(anyone, Deal(FOUR, "A", "three", "B", made=True, buys=(("C", 6),)), 0)


def test_rules_frozen_before_the_house_rules_keep_the_money_they_had():
    """A snapshot without the new settings reads as the behaviour before them."""
    from napledger.core.rules.load import rules_from_dict, rules_to_dict

    old = rules_to_dict(load_preset("classic"))
    for key in ("dealer_peeps", "revoke_fine", "empty_pot_ante", "pass_doubles",
                "purchase_max_dealt"):  # fmt: skip
        del old["settings"][key]
    rules = rules_from_dict(old)
    deal = Deal(FIVE, "A", "three", "B", made=True, peeps=("A",), buys=(("C", 2),))
    assert net(rules, deal) == {"A": -4, "B": 12, "C": -5, "D": -3, "E": -3, POT: 3}
