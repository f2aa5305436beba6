"""The language napledger speaks: how it is chosen, plural forms, numbers as each language
writes them (checked against Babel's CLDR data), on the pure core."""

from __future__ import annotations

from decimal import Decimal

import pytest
from babel.numbers import format_currency, format_decimal

from napledger.core.errors import NapError
from napledger.core.money import shown_money
from napledger.core.numbers import signed, written
from napledger.core.rules import load_preset
from napledger.core.rules.scoring import Deal, outcome
from napledger.core.words import chosen, of_locale, speaking, workbook_language


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LC_MESSAGES": "pl_PL.UTF-8", "LANG": "ru_RU.UTF-8"}, "pl"),
        ({"LC_ALL": "ru_RU.UTF-8", "LC_MESSAGES": "pl_PL", "LANG": "pl_PL"}, "ru"),
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),  # the first set decides
        ({"LC_ALL": "", "LANG": "ru_RU"}, "ru"),  # an empty variable is not set
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "sr_RS@latin"}, "en"),
        ({}, "en"),
        ({"LANGUAGE": "pl:ru", "LANG": "en_GB.UTF-8"}, "pl"),  # gettext's list comes first
        ({"LANGUAGE": "de:ru", "LANG": "en_GB.UTF-8"}, "ru"),  # its first we speak
        ({"LANGUAGE": "de", "LANG": "ru_RU.UTF-8"}, "ru"),  # none of it: the locale
    ],
)
def test_the_locale_chooses_in_posix_order(environ: dict[str, str], lang: str) -> None:
    assert of_locale(environ) == lang
    assert chosen(None, environ) == lang


def test_an_explicit_language_wins_and_a_wrong_one_is_refused() -> None:
    assert chosen("pl", {"LANG": "ru_RU.UTF-8"}) == "pl"
    assert chosen("RU", {}) == "ru"
    with pytest.raises(NapError, match="unknown language 'de'"):
        chosen("de", {})


def test_a_workbook_speaks_as_asked_else_as_its_sessions_keep() -> None:
    assert workbook_language("pl", ["ru"]) == "pl"
    assert workbook_language(None, ["ru", "ru"]) == "ru"
    with speaking("pl"):
        assert workbook_language(None, ["ru", None]) == "pl"  # they disagree: ours
        assert workbook_language(None, [None]) == "pl"


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        (
            "ru",
            {
                1: "взята 1",
                2: "взяты 2",
                5: "взято 5",
                0: "взято 0",
                11: "взято 11",
                21: "взята 21",
            },
        ),
        (
            "pl",
            {
                1: "wzięta 1",
                2: "wzięte 2",
                5: "wzięto 5",
                0: "wzięto 0",
                12: "wzięto 12",
                22: "wzięte 22",
            },
        ),
        ("en", {1: "1 trick", 2: "2 tricks", 5: "5 tricks", 0: "0 tricks"}),
    ],
)
def test_tricks_take_the_plural_form_of_their_number(lang: str, forms: dict[int, str]) -> None:
    rules = load_preset("russian")
    for tricks, said in forms.items():
        deal = Deal(dealer="A", seated=("A", "B", "C"), bid="one", bidder="B", tricks=tricks)
        with speaking(lang):
            assert outcome(rules, deal).endswith(f"({said})")


@pytest.mark.parametrize(
    "lang, said",
    [
        ("ru", ["без одной (взята 1)", "без двух (взято 0)", "сыграно (взяты 2)"]),
        ("pl", ["bez jednej (wzięta 1)", "bez dwóch (wzięto 0)", "ugrana (wzięte 2)"]),
        ("en", ["failed (1 trick)", "failed (0 tricks)", "made (2 tricks)"]),
    ],
)
def test_a_failed_bid_says_how_many_short(lang: str, said: list[str]) -> None:
    """`без двух`: two short of the bid, as a Russian table reads it; then what was taken."""
    rules = load_preset("russian")
    told = []
    for tricks in (1, 0, 2):
        deal = Deal(dealer="A", seated=("A", "B", "C"), bid="two", bidder="B", tricks=tricks)
        with speaking(lang):
            told.append(outcome(rules, deal))
    assert told == said


@pytest.mark.parametrize("lang", ["ru", "pl"])
@pytest.mark.parametrize("text", ["-1234.50", "1234567.5", "12.50", "0.65", "999", "1000"])
def test_numbers_are_written_as_cldr_writes_them(lang: str, text: str) -> None:
    """Babel's CLDR data, but for the minus: a typographic one (−), as the issue writes it."""
    places = len(text.partition(".")[2])
    pattern = "#,##0" + ("." + "0" * places if places else "")
    expected = format_decimal(Decimal(text), format=pattern, locale=lang)
    with speaking(lang):
        assert written(text) == expected.replace("-", "\u2212")


def test_money_reads_as_each_language_writes_it() -> None:
    cases = [
        ("ru", "RUB", Decimal("-1234.50")),
        ("pl", "PLN", Decimal("12.50")),
        ("ru", "EUR", Decimal("3.10")),
    ]
    for lang, currency, amount in cases:
        babel = format_currency(amount, currency, locale=lang).replace("-", "\u2212")
        with speaking(lang):
            assert shown_money(int(amount * 100), Decimal("0.01"), currency, label=True) == babel
    with speaking("ru"):
        assert shown_money(-3, Decimal("12.5"), "RUB", signed=True) == "\u221237,50"
        assert signed(-1234) == "\u22121\u00a0234"
        assert signed(5) == "+5"


def test_english_writes_numbers_as_napledger_always_has() -> None:
    with speaking("en"):
        assert shown_money(-3500, Decimal("0.5"), "GBP", label=True) == "-1750.00 GBP"
        assert signed(-1234) == "-1234"
        assert written("1234.50") == "1234.50"
