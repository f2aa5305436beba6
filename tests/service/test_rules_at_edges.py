"""The rules at their edges, through the session service: settings a game does not have,
peeping and buying where the game has none, and what five-trick bids do to the pot
(docs/rules.md, "Settings" and "Five-trick bids"). How the command line types and shows
them (`--rule`, `--buy`, `variants`) is tests/cli/test_rules_at_edges.py's."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

import napledger.core.rules
from napledger.core.errors import NapError, RuleError
from napledger.core.rules import load_preset, load_rules
from napledger.core.rules.load import with_overrides

ABSENT = [
    ("russian", "pool_fail_doubles=off"),
    ("russian", "pool=on"),
    ("russian", "pool_ante=2"),
    ("russian", "dealer_sits_out_from=5"),
    ("russian", "peep_fee=1"),
    ("russian", "purchase_fee=1"),
    ("seven-card", "peep_fee=2"),
    ("seven-card", "purchase_fee=0"),
]


@pytest.mark.parametrize(("variant", "rule"), ABSENT)
def test_a_setting_the_preset_does_not_have_is_refused_with_its_reason(variant, rule):
    key = rule.partition("=")[0]
    with pytest.raises(RuleError) as refused:
        with_overrides(load_preset(variant), [rule])
    assert str(refused.value).startswith(f"{variant} has no rule {key}: ")


def test_a_failed_napoleon_always_doubles_the_box(table):
    table.new("s", "A,B,C,D", variant="russian")
    table.hand("napoleon", "B", failed=True)  # A antes 1; B pays 5 each and 1 into the box
    assert table.pot() == 2


@pytest.mark.parametrize("value", ["2", "3", "0", "12"])
def test_the_dealer_sits_out_from_four_players_or_never(value):
    with pytest.raises(RuleError, match="dealer_sits_out_from is off or from 4 to 11 players"):
        with_overrides(load_preset("classic"), [f"dealer_sits_out_from={value}"])


@pytest.mark.parametrize("value", ["4", "off"])
def test_the_dealer_may_sit_out_from_four_or_never(table, value):
    table.new("s", "A,B,C,D", rules=[f"dealer_sits_out_from={value}"])
    table.pass_()  # A dealt; B deals now
    if value == "4":
        with pytest.raises(NapError, match="sits out"):
            table.hand("three", "B", made=True)
    else:
        table.hand("three", "B", made=True)


def test_a_rule_file_cannot_seat_the_dealer_out_from_three(tmp_path):
    text = (resources.files("napledger.core.rules") / "presets" / "classic.toml").read_text("utf-8")
    path = tmp_path / "ours.toml"
    path.write_text(text.replace("dealer_sits_out_from = 6", "dealer_sits_out_from = 3"))
    with pytest.raises(RuleError, match="dealer_sits_out_from is off or from 4"):
        load_rules(str(path))


@pytest.mark.parametrize("option", [{"peeps": ("B",)}, {"buys": (("A", 1),)}], ids=["peep", "buy"])
def test_seven_card_has_no_peeping_and_no_exchange(table, option):
    table.new("s", "A,B,C,D", variant="seven-card")
    with pytest.raises(NapError):
        table.hand("six", "A", tricks=6, **option)
    with pytest.raises(NapError):
        table.pass_(**option)
    assert list(table.read(lambda s: s.history(with_roster=False).deals)) == []


def test_russian_has_no_peeping(table):
    table.new("s", "A,B,C,D", variant="russian")
    with pytest.raises(NapError, match="nobody peeps in russian"):
        table.hand("three", "B", made=True, peeps=("C",))


def test_in_russian_only_the_bidder_buys_one_card_free(table):
    table.new("s", "A,B,C,D", variant="russian")
    with pytest.raises(NapError, match="only the bidder buys"):
        table.hand("three", "B", made=True, buys=(("C", 1),))
    with pytest.raises(NapError, match="only the bidder buys"):
        table.pass_(buys=(("B", 1),))
    with pytest.raises(NapError, match="can buy one card, not 2"):
        table.hand("three", "B", made=True, buys=(("B", 2),))
    table.hand("three", "B", made=True, buys=(("B", 1),))
    (deal,) = table.read(lambda s: s.history(with_roster=False).deals)
    assert deal.deal is not None and deal.deal.buys == (("B", 1),)
    # Nothing moves but the dealer's ante (A) and the three.
    assert table.chips() == {"A": -4, "B": 9, "C": -3, "D": -3}
    assert table.pot() == 1


# --- five-trick bids and the pot ------------------------------------------------


@pytest.mark.parametrize("bid", ["nap", "wellington", "blücher"])
def test_a_made_five_trick_bid_takes_a_pot_of_peep_fees_alone(table, bid):
    table.new("s", "A,B,C,D")
    table.hand("three", "B", made=True, peeps=("C", "D"))  # pot 2, from peeps only
    table.hand(bid, "A", made=True)
    assert table.pot() == 0
    assert table.chips()["A"] == -3 + 30 + 2


@pytest.mark.parametrize(("bid", "lose"), [("nap", 5), ("wellington", 10), ("blücher", 20)])
def test_a_failed_five_trick_bid_pays_a_pot_of_fees_its_own_amount(table, bid, lose):
    table.new("s", "A,B,C,D", rules=["pool_fail_doubles=on"])
    # pot 3: a purchase and a peep
    table.hand("three", "B", made=True, buys=(("C", 2),), peeps=("D",))
    table.hand(bid, "A", failed=True)
    assert table.pot() == 6
    assert table.chips()["A"] == -3 - 3 * lose - 3


def test_without_pool_fail_doubles_a_failed_nap_leaves_the_pot_alone(table):
    table.new("s", "A,B,C,D")
    table.hand("three", "B", made=True, peeps=("C",))
    table.hand("nap", "A", failed=True)
    assert table.pot() == 1


@pytest.mark.parametrize("bid", ["nap", "six", "seven"])
def test_in_seven_card_five_trick_bids_take_a_pot_of_dealers_antes(table, bid):
    table.new("s", "A,B,C,D", variant="seven-card", rules=["dealer_ante=1"])
    table.pass_()  # A antes: pot 1
    table.hand(bid, "C", made=True)  # B antes: pot 2, then C takes it
    assert table.pot() == 0


@pytest.mark.parametrize("bid", ["nap", "six", "seven"])
def test_in_seven_card_a_failed_five_trick_bid_doubles_a_pot_of_antes(table, bid):
    table.new("s", "A,B,C,D", variant="seven-card", rules=["dealer_ante=1", "pool_fail_doubles=on"])
    table.pass_()
    table.hand(bid, "C", failed=True)
    assert table.pot() == 4


@pytest.mark.parametrize("variant", ["classic", "seven-card"])
def test_misere_never_touches_the_pot(table, variant):
    table.new("s", "A,B,C,D", variant=variant, rules=["dealer_ante=1", "pool_fail_doubles=on"])
    table.hand("misere", "B", tricks=0)
    table.hand("misere", "C", tricks=1)
    assert table.pot() == 2


def test_in_russian_only_napoleon_touches_the_box(table):
    table.new("s", "A,B,C,D", variant="russian")
    table.hand("five", "B", made=True)  # box 1: a made five does not take it
    assert table.pot() == 1
    table.hand("five", "C", failed=True)  # box 2, then the five-chip fine: 7, not doubled
    assert table.pot() == 7
    table.hand("napoleon", "D", made=True)  # box 8, taken
    assert table.pot() == 0


def test_house_rules_from_the_books(table):
    """docs/rules.md examples 18 and 19."""
    table.new("books", "A,B,C,D", rules=["pass_doubles=on", "pool=on", "revoke_fine=5"])
    table.pass_()  # each antes 1 (pot 4)
    table.hand("four", "B", revoke="D")  # after a pass: D pays B 2 x 12 and 5 into the pot
    assert table.chips() == {"A": -2, "B": 22, "C": -2, "D": -31}
    assert table.pot() == 4 + 4 + 5
    assert table.problems() == []
    with pytest.raises(NapError, match="B can buy 1 to 5 cards, not 44"):  # a hand's worth
        table.hand("3", "A", made=True, peeps=("C",), buys=(("B", 44),))


def test_a_dealer_who_may_not_look_is_refused_and_nothing_is_written(table):
    table.new("strict", "A,B,C,D,E", rules=["dealer_peeps=never"])
    with pytest.raises(NapError, match="may not look at the floater"):
        table.hand("3", "B", made=True, peeps=("A",))
    with pytest.raises(NapError, match="purchase_max_dealt"):
        table.hand("3", "B", made=True, buys=(("C", 1),))
    assert table.read(lambda s: s.scoreboard().hands) == 0
    with pytest.raises(RuleError) as refused:
        with_overrides(load_preset("classic"), ["dealer_peeps=maybe"])
    assert str(refused.value) == "rule dealer_peeps is free, pays or never, not 'maybe'"


BOOKS = sorted((Path(napledger.core.rules.__file__).parent / "books").glob("*.toml"))


def test_the_book_rule_files_are_shipped():
    assert [b.stem for b in BOOKS] == ["double-stakes", "half-stakes", "pool-nap"]


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.stem)
def test_each_book_rule_file_starts_a_session_and_plays_a_deal(table, book):
    assert book.read_text(encoding="utf-8").startswith("# ")  # names its source first
    table.new(book.stem, "Ann,Ben,Cat,Dan", variant=str(book))
    table.hand("nap", "Ben", made=True)
    chips = table.chips()
    assert sum(chips.values()) + table.pot() == 0
    assert chips["Ben"] > 0 and table.problems() == []


def test_examples_17_and_20(table):
    """docs/rules.md example 17 (the opening stake) and 20 (the dealer looks free)."""
    table.new("opening", "A,B,C,D", rules=["empty_pot_ante=2"])
    table.hand("nap", "B", made=True)
    table.hand("three", "C", failed=True)
    assert table.chips() == {"A": -11, "B": 37, "C": -23, "D": -11}
    assert table.pot() == 8
    table.new("look", "A,B,C,D,E")
    table.hand("three", "B", made=True, peeps=("A", "C"))
    assert table.chips() == {"A": -3, "B": 12, "C": -4, "D": -3, "E": -3}
