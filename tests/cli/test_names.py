"""Names as typed at a table: trimmed, matched in any case, ambiguity said plainly, any script."""

from __future__ import annotations

import pytest


def test_names_are_trimmed(nap):
    nap("new ' friday  night ' --players ' Ann ,  Bob,Cy  '")
    doc = nap.json("table --json")
    assert doc["session"]["name"] == "friday night"
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bob", "Cy"]
    nap("hand 3 --by '  ann  ' --made")
    assert nap.chips()["Ann"] == 6


def test_matching_ignores_case_and_accents(nap):
    nap("new s --players Zoë,Bob,Cy")
    nap("hand 3 --by ZOE --made")
    nap("hand 3 --by zoë --failed")
    nap("hand 3 --by BOB --revoke cY")
    assert nap.chips() == {"Zoë": 0, "Bob": 6, "Cy": -6}  # a revoker pays for both opponents
    nap("table --session S")  # session names too


def test_an_ambiguous_prefix_is_an_error_and_an_exact_name_wins(nap):
    nap("new s --players Ann,Anna,Bob")
    assert nap.fails("hand 3 --by an --made") == (
        "Error: 'an' could be Ann, Anna; type more of the name (--by)"
    )
    nap("hand 3 --by ann --made")  # exactly Ann, though Anna starts with it too
    nap("hand 3 --by annA --made")
    nap("hand 3 --by b --made")  # a unique prefix
    assert nap.chips() == {"Ann": 6 - 3 - 3, "Anna": -3 + 6 - 3, "Bob": -3 - 3 + 6}


def test_a_misspelt_name_gets_a_suggestion(nap):
    nap("new s --players Ann,Bob,Cy")
    assert "did you mean Bob?" in nap.fails("hand 3 --by Bbo --made")


@pytest.mark.parametrize(
    "names", [("Zoë", "Пётр", "李雷"), ("🂡 Ace", "Ωmega", "José María"), ("Ζήνων", "עמית", "محمد")]
)
def test_any_unicode_name_round_trips(nap, names):
    nap(f"new 'séance {names[0]}' --players '{','.join(names)}'")
    nap(f"hand 3 --by '{names[1]}' --made")
    doc = nap.json("table --json")
    assert [p["name"] for p in doc["players"]] == list(names)
    assert {p["name"]: p["chips"] for p in doc["players"]}[names[1]] == 6
    assert doc["session"]["name"] == f"séance {names[0]}"
    assert nap.json("hands --json")[0]["bidder"] == names[1]
    nap("verify")


def test_a_person_keeps_one_spelling_across_sessions(nap):
    nap("new one --players Zoë,Bob,Cy")
    nap("new two --players ZOE,bob,Di")
    assert [p["name"] for p in nap.json("table --json")["players"]] == ["Zoë", "Bob", "Di"]
