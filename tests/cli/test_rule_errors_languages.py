"""The mistakes a table makes in `new` about its game (a setting mistyped, a game that
does not exist) are told in the table's language."""

from __future__ import annotations

import pytest

from tests.cli.test_languages import untranslated

LINES = [
    "new x --players А,Б,В --rule pool=maybe",
    "new x --players А,Б,В --rule pool",
    "new x --players А,Б,В --rule nosuch=1",
    "new x --players А,Б,В --rule pool_ante=half",
    "new x --players А,Б,В --rule dealer_peeps=sometimes",
    "new x --players А,Б,В --variant nope",
    "new x --players А,Б,В --variant seven-card --rule dealer_peeps=free",
]


@pytest.mark.parametrize("lang", ["ru", "pl"])
@pytest.mark.parametrize("line", LINES)
def test_a_mistaken_game_is_told_in_the_tables_language(nap, monkeypatch, lang, line):
    monkeypatch.setenv("NAPLEDGER_LANG", lang)
    said = nap.fails(line)
    keys = (
        "pool",
        "two",
        "misere",
        "on",
        "off",
        "free",
        "pays",
        "never",
        "classic",
        "russian",
        "seven-card",
    )
    assert untranslated(said, lang, ("А", "Б", "В", *keys)) == [], (
        said
    )  # keys are typed as they are
