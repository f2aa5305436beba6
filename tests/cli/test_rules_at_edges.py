"""The rules at their edges: settings a game does not have, peeping and buying where the
game has none, and what five-trick bids do to the pot (docs/rules.md, "Settings" and
"Five-trick bids")."""

from __future__ import annotations

from pathlib import Path

import pytest

import napledger.core.rules

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
def test_a_setting_the_preset_does_not_have_is_refused_with_its_reason(nap, variant, rule):
    nap("new before --players A,B,C")
    line = nap.fails(f"new s --players A,B,C,D --variant {variant} --rule {rule}")
    key = rule.partition("=")[0]
    assert line.startswith(f"Error: {variant} has no rule {key}: ")
    assert [s["name"] for s in nap.json("sessions --json")["sessions"]] == ["before"]


def test_a_failed_napoleon_always_doubles_the_box(nap):
    nap("new s --players A,B,C,D --variant russian")
    nap("hand napoleon --by B --failed")  # A antes 1; B pays 5 each and 1 into the box
    assert nap.json("table --json")["pot"] == 2


@pytest.mark.parametrize("value", ["2", "3", "0", "12"])
def test_the_dealer_sits_out_from_four_players_or_never(nap, value):
    line = nap.fails(f"new s --players A,B,C,D --rule dealer_sits_out_from={value}")
    assert "dealer_sits_out_from is off or from 4 to 11 players" in line


@pytest.mark.parametrize("value", ["4", "off"])
def test_the_dealer_may_sit_out_from_four_or_never(nap, value):
    nap(f"new s --players A,B,C,D --rule dealer_sits_out_from={value}")
    nap("pass")  # A dealt; B deals now
    if value == "4":
        assert "sits out" in nap.fails("hand three --by B --made")
    else:
        nap("hand three --by B --made")


def test_a_rule_file_cannot_seat_the_dealer_out_from_three(nap, tmp_path):
    from importlib import resources

    text = (resources.files("napledger.core.rules") / "presets" / "classic.toml").read_text("utf-8")
    path = tmp_path / "ours.toml"
    path.write_text(text.replace("dealer_sits_out_from = 6", "dealer_sits_out_from = 3"))
    assert "dealer_sits_out_from is off or from 4" in nap.fails(
        f"new s --players A,B,C --variant {path}"
    )


@pytest.mark.parametrize("option", ["--peep B", "--buy A=1"])
def test_seven_card_has_no_peeping_and_no_exchange(nap, option):
    nap("new s --players A,B,C,D --variant seven-card")
    nap.fails(f"hand six --by A --tricks 6 {option}")
    nap.fails(f"pass {option}")
    assert nap.json("hands --json") == []


def test_russian_has_no_peeping(nap):
    nap("new s --players A,B,C,D --variant russian")
    assert "nobody peeps in russian" in nap.fails("hand three --by B --made --peep C")


def test_in_russian_only_the_bidder_buys_one_card_free(nap):
    nap("new s --players A,B,C,D --variant russian")
    assert "only the bidder buys" in nap.fails("hand three --by B --made --buy C=1")
    assert "only the bidder buys" in nap.fails("pass --buy B=1")
    assert "can buy one card, not 2" in nap.fails("hand three --by B --made --buy B=2")
    nap("hand three --by B --made --buy B=1")
    (deal,) = nap.json("hands --json")
    assert deal["buys"] == {"B": 1}
    # Nothing moves but the dealer's ante (A) and the three.
    assert nap.chips() == {"A": -4, "B": 9, "C": -3, "D": -3}
    assert nap.json("table --json")["pot"] == 1


# --- five-trick bids and the pot ------------------------------------------------


@pytest.mark.parametrize("bid", ["nap", "wellington", "blücher"])
def test_a_made_five_trick_bid_takes_a_pot_of_peep_fees_alone(nap, bid):
    nap("new s --players A,B,C,D")
    nap("hand three --by B --made --peep C --peep D")  # pot 2, from peeps only
    nap(f"hand {bid} --by A --made")
    assert nap.json("table --json")["pot"] == 0
    assert nap.chips()["A"] == -3 + 30 + 2


@pytest.mark.parametrize(("bid", "lose"), [("nap", 5), ("wellington", 10), ("blücher", 20)])
def test_a_failed_five_trick_bid_pays_a_pot_of_fees_its_own_amount(nap, bid, lose):
    nap("new s --players A,B,C,D --rule pool_fail_doubles=on")
    nap("hand three --by B --made --buy C=2 --peep D")  # pot 3: a purchase and a peep
    nap(f"hand {bid} --by A --failed")
    assert nap.json("table --json")["pot"] == 6
    assert nap.chips()["A"] == -3 - 3 * lose - 3


def test_without_pool_fail_doubles_a_failed_nap_leaves_the_pot_alone(nap):
    nap("new s --players A,B,C,D")
    nap("hand three --by B --made --peep C")
    nap("hand nap --by A --failed")
    assert nap.json("table --json")["pot"] == 1


@pytest.mark.parametrize("bid", ["nap", "six", "seven"])
def test_in_seven_card_five_trick_bids_take_a_pot_of_dealers_antes(nap, bid):
    nap("new s --players A,B,C,D --variant seven-card --rule dealer_ante=1")
    nap("pass")  # A antes: pot 1
    nap(f"hand {bid} --by C --made")  # B antes: pot 2, then C takes it
    assert nap.json("table --json")["pot"] == 0


@pytest.mark.parametrize("bid", ["nap", "six", "seven"])
def test_in_seven_card_a_failed_five_trick_bid_doubles_a_pot_of_antes(nap, bid):
    nap(
        "new s --players A,B,C,D --variant seven-card --rule dealer_ante=1 --rule pool_fail_doubles=on"
    )
    nap("pass")
    nap(f"hand {bid} --by C --failed")
    assert nap.json("table --json")["pot"] == 4


@pytest.mark.parametrize("variant", ["classic", "seven-card"])
def test_misere_never_touches_the_pot(nap, variant):
    nap(
        f"new s --players A,B,C,D --variant {variant} --rule dealer_ante=1 --rule pool_fail_doubles=on"
    )
    nap("hand misere --by B --tricks 0")
    nap("hand misere --by C --tricks 1")
    assert nap.json("table --json")["pot"] == 2


def test_in_russian_only_napoleon_touches_the_box(nap):
    nap("new s --players A,B,C,D --variant russian")
    nap("hand five --by B --made")  # box 1: a made five does not take it
    assert nap.json("table --json")["pot"] == 1
    nap("hand five --by C --failed")  # box 2, then the five-chip fine: 7, not doubled
    assert nap.json("table --json")["pot"] == 7
    nap("hand napoleon --by D --made")  # box 8, taken
    assert nap.json("table --json")["pot"] == 0


def test_variants_shows_a_dash_and_the_reason_beside_a_setting_the_game_lacks(nap):
    out = nap("variants seven-card").stdout
    assert "— (the game has no peeping)" in out
    assert "Buying cards before the bid: nobody." in out
    assert (
        "Buying cards before the bid: only the bidder, at most 1 card."
        in nap("variants russian").stdout
    )


def test_house_rules_from_the_books_through_the_command_line(nap):
    """docs/rules.md examples 18 and 19 typed as a table would, and what `variants` lists."""
    listed = nap("variants classic").stdout
    for setting in ("dealer_peeps", "free", "revoke_fine", "empty_pot_ante", "pass_doubles",
                    "purchase_max_dealt"):  # fmt: skip
        assert setting in listed
    nap("new books --players A,B,C,D --rule pass_doubles=on --rule pool=on --rule revoke_fine=5")
    nap("pass")  # each antes 1 (pot 4)
    nap("hand four --by B --revoke D")  # after a pass: D pays B 2 x 12 and 5 into the pot
    assert nap.chips() == {"A": -2, "B": 22, "C": -2, "D": -31}
    assert nap.json("table --json")["pot"] == 4 + 4 + 5
    assert "check out" in nap("verify").stdout
    error = nap.fails("hand 3 --by A --made --peep C --buy B=44")
    assert error == "Error: B can buy 1 to 5 cards, not 44 (--buy)"  # at most a hand's worth


def test_a_dealer_who_may_not_look_is_refused_and_nothing_is_written(nap):
    nap("new strict --players A,B,C,D,E --rule dealer_peeps=never")
    assert "may not look at the floater" in nap.fails("hand 3 --by B --made --peep A")
    assert "purchase_max_dealt" in nap.fails("hand 3 --by B --made --buy C=1")
    assert nap.json("table --json")["hands"] == 0
    refused = nap.fails("new x --players A,B,C --rule dealer_peeps=maybe")
    assert refused == "Error: rule dealer_peeps is free, pays or never, not 'maybe'"


BOOKS = sorted((Path(napledger.core.rules.__file__).parent / "books").glob("*.toml"))


def test_the_book_rule_files_are_shipped():
    assert [b.stem for b in BOOKS] == ["double-stakes", "half-stakes", "pool-nap"]


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.stem)
def test_each_book_rule_file_starts_a_session_and_plays_a_deal(nap, book):
    assert book.read_text(encoding="utf-8").startswith("# ")  # names its source first
    nap(f"new {book.stem} --players Ann,Ben,Cat,Dan --variant {book}")
    nap("hand nap --by Ben --made")
    chips = nap.chips()
    assert sum(chips.values()) + nap.json("table --json")["pot"] == 0
    assert chips["Ben"] > 0 and "check out" in nap("verify").stdout


def test_examples_17_and_20_typed_at_the_table(nap):
    """docs/rules.md example 17 (the opening stake) and 20 (the dealer looks free)."""
    nap("new opening --players A,B,C,D --rule empty_pot_ante=2")
    nap("hand nap --by B --made")
    nap("hand three --by C --failed")
    assert nap.chips() == {"A": -11, "B": 37, "C": -23, "D": -11}
    assert nap.json("table --json")["pot"] == 8
    nap("new look --players A,B,C,D,E")
    nap("hand three --by B --made --peep A --peep C")
    assert nap.chips() == {"A": -3, "B": 12, "C": -4, "D": -3, "E": -3}
