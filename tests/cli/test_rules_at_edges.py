"""The rules at their edges as the command line types and shows them: a `--rule` the game
has not, a `--variant` file, `--buy` named in a refusal, and `variants` beside a setting
the game lacks. The rules themselves (settings, peeping and buying, five-trick bids and
the pot, the books' house rules) are tested on the session service:
tests/service/test_rules_at_edges.py."""

from __future__ import annotations


def test_a_setting_the_preset_does_not_have_is_refused_with_its_reason(nap):
    nap("new before --players A,B,C")
    line = nap.fails("new s --players A,B,C,D --variant russian --rule pool=on")
    assert line.startswith("Error: russian has no rule pool: ")
    assert [s["name"] for s in nap.json("sessions --json")["sessions"]] == ["before"]


def test_a_rule_file_cannot_seat_the_dealer_out_from_three(nap, tmp_path):
    from importlib import resources

    text = (resources.files("napledger.core.rules") / "presets" / "classic.toml").read_text("utf-8")
    path = tmp_path / "ours.toml"
    path.write_text(text.replace("dealer_sits_out_from = 6", "dealer_sits_out_from = 3"))
    assert "dealer_sits_out_from is off or from 4" in nap.fails(
        f"new s --players A,B,C --variant {path}"
    )


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
    error = nap.fails("hand 3 --by A --made --peep C --buy B=44")
    assert error == "Error: B can buy 1 to 5 cards, not 44 (--buy)"  # the option named
