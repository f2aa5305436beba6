"""A typed paper score sheet read by the core (docs/scoresheet.md): what each cell means,
how the file is split, and that every refusal names its line and why. The same sheet
written through the session service is tests/service/test_scoresheet.py's."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.core.options import DealOptions
from napledger.core.rules import load_preset
from napledger.core.scoresheet import COLUMN_KEYS, HEADER_KEYS, SheetError, parse_sheet
from napledger.core.vocabulary import INDEX
from napledger.core.words import speaking

# Classic, five players: docs/rules.md's worked examples 1-5 typed as a sheet (deal 1 is
# example 1, and so on), then a pass and a deal with a peep and a purchase.
CLASSIC = """\
session,friday
game,classic
players,Ann,Ben,Cat,Dan,Eve
chip,"0,05"
currency,GBP
rule,purchase_max_dealt=off

dealer,bidder,bid,result,revoker,peeps,purchases,note
Ann,Ann,nap,5,,,,
,Ben,three,4,,,,
,Cat,misere,1,,,,
,Dan,four,,Eve,,,
,Ann,wellington,revoke Ann,,,,
,,pass,,,,,nobody bid
,Cat,3,made,,"Cat, Dan",Cat=2,
"""


def test_each_cell_reads_as_hand_takes_it():
    sheet = parse_sheet(CLASSIC)
    assert (sheet.name, sheet.players) == ("friday", ("Ann", "Ben", "Cat", "Dan", "Eve"))
    assert (sheet.rules.name, sheet.chip_value, sheet.currency) == (
        "classic",
        Decimal("0.05"),
        "GBP",
    )
    assert sheet.dealer == "Ann" and sheet.language is None
    assert sheet.deal_count == 7
    assert [d.line for d in sheet.deals] == [9, 10, 11, 12, 13, 14, 15]
    options = [d.options for d in sheet.deals]
    assert options[0] == DealOptions(bid="nap", by="Ann", tricks=5, dealer="Ann")
    assert options[2] == DealOptions(bid="misere", by="Cat", tricks=1)
    assert options[3] == DealOptions(bid="four", by="Dan", revoke="Eve")
    assert options[4] == DealOptions(bid="wellington", by="Ann", revoke="Ann")
    assert sheet.deals[5].passed and options[5] == DealOptions(note="nobody bid")
    assert options[6] == DealOptions(
        bid="3", by="Cat", made=True, peeps=("Cat", "Dan"), buys=(("Cat", 2),)
    )
    # (Five are dealt in, so buying needs the rule above: purchase_max_dealt is 4.)
    # Examples 1-5: A 0, B +15, C -15, D +16, E -16. The pass moves nothing; deal 7 (Ben
    # deals, so Cat's peep costs 1 and Dan's 1, Cat's two cards 2): Cat +12 -1 -2 = +9,
    # Dan -3 -1 = -4, the others -3; the pot 4.
    assert dict(sheet.chips) == {"Ann": -3, "Ben": 12, "Cat": -6, "Dan": 12, "Eve": -19}
    assert sheet.pot == 4


def test_semicolons_tabs_and_a_byte_order_mark_read_alike():
    semicolons = CLASSIC.replace('"Cat, Dan"', "Cat, Dan").replace(",", ";")
    semicolons = semicolons.replace("Cat; Dan", "Cat, Dan").replace('"0;05"', "0,05")
    tabs = (
        CLASSIC.replace('"Cat, Dan"', "Cat+Dan").replace(",", "\t").replace("Cat+Dan", "Cat, Dan")
    )
    tabs = tabs.replace('"0\t05"', "0,05")
    first = parse_sheet(CLASSIC)
    for text in (semicolons, tabs, "\ufeff" + CLASSIC, CLASSIC.replace("\n", "\r\n")):
        again = parse_sheet(text)
        assert again.deals == first.deals and again.chip_value == Decimal("0.05")
        assert dict(again.chips) == dict(first.chips)


def test_excels_separator_line_and_keys_written_with_a_colon():
    """`sep=;` is the line Excel writes (and reads) to say the separator; a sheet copied
    from paper may head its lines `players:`."""
    text = "sep=;\nsession:;friday\nGame:;classic\nplayers:;Ann;Ben;Cat\nbidder:;bid:;result:\nAnn;3;3\n"
    sheet = parse_sheet(text)
    assert (sheet.name, sheet.players, sheet.deals[0].line) == ("friday", ("Ann", "Ben", "Cat"), 6)
    assert dict(sheet.chips) == {"Ann": 6, "Ben": -3, "Cat": -3}


def test_a_sheet_typed_one_column_in_reads_alike():
    """A spreadsheet's first column left empty (row numbers typed there, or nothing)."""
    moved = "".join(";" + line + "\n" for line in (HEADER + COLUMNS).splitlines())
    moved += ";Ann;Ann;three;3\n;# a comment\n;;Ben;four;failed\n"
    sheet = parse_sheet(moved)
    assert sheet.players == ("Ann", "Ben", "Cat", "Dan")
    assert [d.line for d in sheet.deals] == [5, 7]
    assert sheet.deals[1].options == DealOptions(bid="four", by="Ben", failed=True)


def test_a_russian_sheet_in_its_own_words():
    text = """\
# записано с бумажного листа
ПАРТИЯ;пятница
игра;russian
игроки;Борис, Аня, Гена
фишка;5
валюта;rub
язык;RU
сдаёт;играет;назначение;исход;ренонс;прикуп;заметка
Гена;Борис;три;взял;;;
;Аня;две;не взяла;;Аня;
;Гена;наполеон;ренонс Борис;;;
;;пас;;;;
"""
    sheet = parse_sheet(text)
    assert (sheet.players, sheet.dealer, sheet.currency, sheet.language) == (
        ("Борис", "Аня", "Гена"),
        "Гена",
        "RUB",
        "ru",
    )
    options = [d.options for d in sheet.deals]
    assert options[1] == DealOptions(bid="две", by="Аня", failed=True, buys=(("Аня", 1),))
    assert options[2] == DealOptions(bid="наполеон", by="Гена", revoke="Борис")
    # Deal 1 (Гена deals, box 1): Борис +6, the others -3. Deal 2 (Борис deals, box 2):
    # Аня pays 2 to each and 2 to the box (box 4). Deal 3 (Аня deals, box 5): Борис
    # revokes Гена's napoleon and alone pays him 5 x 2. Deal 4 (Гена deals): box 6.
    # Борис -1 +6 +2 -10 = -3; Аня -3 -1 -6 = -10; Гена -1 -3 +2 +10 -1 = 7.
    assert dict(sheet.chips) == {"Борис": -3, "Аня": -10, "Гена": 7}
    assert sheet.pot == 6


def test_a_polish_sheet_with_a_rule_and_the_dealer_named():
    text = """\
partia;sobota
gra;classic
zasada;pool=on
gracze;Ania;Bartek;Cezary;Dorota
żeton;0,10
rozdający;licytant;licytacja;wynik
Dorota;Ania;trzy;ugrała
;Bartek;nap;wpadł
Ania;Cezary;trzy;3
"""
    sheet = parse_sheet(text)
    assert sheet.rules.settings.pool and sheet.chip_value == Decimal("0.10")
    assert sheet.dealer == "Dorota"
    assert sheet.deals[2].options.dealer == "Ania"  # off the rotation (Bartek would deal)
    # Example 9's first deal (pot 4, Ania +8); Bartek's nap fails: each antes (pot 8),
    # he pays 5 to each; Ania deals, Cezary makes three: each antes (pot 12), +9.
    assert dict(sheet.chips) == {"Ania": 8 - 1 + 5 - 1 - 3, "Bartek": -4 - 1 - 15 - 1 - 3,
                                 "Cezary": -4 - 1 + 5 - 1 + 9, "Dorota": -4 - 1 + 5 - 1 - 3}  # fmt: skip
    assert sheet.pot == 12


def test_a_polish_sheet_may_head_its_columns_as_a_polish_table_does():
    """`zasady`, `podgląda` and `uwagi` (what a Polish sheet heads its notes with) read as
    `zasada`, `podglądanie` and `notatka` do (the Polish reader's suggestion, #35)."""
    text = """\
partia;sobota
gra;classic
zasady;pool=on
gracze;Ania;Bartek;Cezary;Dorota
licytant;licytacja;wynik;podgląda;uwagi
Ania;trzy;ugrała;Bartek;pierwsze rozdanie
"""
    sheet = parse_sheet(text)
    assert sheet.rules.settings.pool
    (deal,) = sheet.deals
    assert deal.options.peeps == ("Bartek",) and deal.options.note == "pierwsze rozdanie"


def refused(text: str) -> SheetError:
    with pytest.raises(SheetError) as caught:
        parse_sheet(text)
    return caught.value


HEADER = "session;friday\ngame;classic\nplayers;Ann;Ben;Cat;Dan\n"
COLUMNS = "dealer;bidder;bid;result;revoker;peeps;purchases\n"


@pytest.mark.parametrize(
    ("rows", "line", "why"),
    [
        (";Ann;nap;5\n;Ben;grand;3\n", 6, "unknown bid 'grand' in classic"),
        (";Zed;three;3\n", 5, "'Zed'"),
        (";Ann;pass;made\n", 5, "a passed-out deal has no bidder, result or revoker"),
        (";Ann;three;\n", 5, "the result is empty"),
        (";Ann;three;sort of\n", 5, "the result 'sort of' is not the tricks taken"),
        (";Ann;three;made a lot\n", 5, "the result 'made a lot'"),
        (";Ann;three;revoke\n", 5, "say who revoked"),
        (";Ann;three;revoke Ben;Cat\n", 5, "the result says 'revoke Ben' but the revoker is 'Cat'"),
        (";;three;3\n", 5, "who bid three? the bidder is empty"),
        (";Ann;;3\n", 5, "the bid is empty"),
        (";Ann;three;6\n", 5, "tricks"),
        (";Ann;three;3;;;Ann=x\n", 5, "cards bought wants a whole number"),
        (";Ann;three;3;;;;;oops\n", 5, "column 9 has no heading"),
        (";Ann;made;3\n", 5, "'made' says how the deal went"),
    ],
)
def test_each_refused_row_names_its_line_and_why(rows, line, why):
    error = refused(HEADER + COLUMNS + rows)
    assert error.line == line
    assert str(error).startswith(f"line {line}: ")
    if why is not None:
        assert why in str(error)


def test_a_dealer_named_off_the_rotation_is_taken_as_hand_takes_it():
    """`--dealer` moves the rotation: the row is not refused (the test above only needs
    a row after it that is), and the next deal follows the named dealer."""
    sheet = parse_sheet(HEADER + COLUMNS + "Ann;Ann;three;3\nCat;Ben;three;3\n;Dan;three;3\n")
    assert sheet.deals[1].options.dealer == "Cat"


@pytest.mark.parametrize(
    ("text", "line", "why"),
    [
        ("sesion;friday\n", 1, "'sesion' is not a line of the score sheet's header"),
        (HEADER + "session;again\n" + COLUMNS, 4, "session is given twice (line 1 too)"),
        (HEADER.replace("classic", "whist") + COLUMNS, 2, "unknown variant 'whist'"),
        (HEADER.replace("Cat;Dan", "Cat;Ann") + COLUMNS, 3, "Ann is named twice"),
        (HEADER.replace(";Ben;Cat;Dan", "") + COLUMNS, 3, "players"),
        (HEADER + "chip;0,05;0,10\n" + COLUMNS, 4, "chip wants one value, not 2"),
        (HEADER + "chip;-1\n" + COLUMNS, 4, "the chip value wants an amount"),
        (HEADER + "currency;\x07\n" + COLUMNS, 4, "control characters"),
        (HEADER + "language;fr\n" + COLUMNS, 4, "the language is one of en, ru, pl, not 'fr'"),
        (HEADER + "rule;pool=maybe\n" + COLUMNS, 4, "pool"),
        (HEADER.replace("friday", "2024") + COLUMNS, 1, "a session name cannot be only digits"),
        (HEADER + "dealer;bidder;bid;outcome;score\n", 4, "'score' is not a column"),
        (HEADER + "dealer;bidder;bid;bid\n", 4, "the column bid is headed twice"),
        (HEADER + "dealer;bidder;bid\n", 4, "the row of column headings has no result column"),
        (HEADER + COLUMNS + 'Ann;Ann;"three;3\n', 5, None),  # a quote left open: csv says
    ],
)
def test_each_refused_header_names_its_line_and_why(text, line, why):
    error = refused(text)
    assert (error.line, str(error).split(": ")[0]) == (line, f"line {line}")
    if why is not None:
        assert why in str(error)


def test_what_a_sheet_lacks_is_said_without_a_line():
    assert "does not say its game" in str(refused("session;x\nplayers;A;B;C\n" + COLUMNS))
    assert refused("session;x\nplayers;A;B;C\n" + COLUMNS).line is None
    assert "no row of column headings" in str(refused(HEADER))


def test_a_refusal_is_said_in_the_tables_language():
    with speaking("ru"):
        error = refused(HEADER + COLUMNS + ";Ann;три;пусто\n")
    assert str(error).startswith("строка 5: ") and "исход «пусто»" in str(error)
    with speaking("pl"):
        error = refused(HEADER + COLUMNS + ";Ann;trzy;\n")
    assert str(error).startswith("wiersz 5: ")


def test_no_word_of_the_sheet_means_two_things():
    """A header key is never a column heading (the heading row is found by its first
    cell), and neither is a word of the game (a result, pass)."""
    assert not set(HEADER_KEYS) & set(COLUMN_KEYS)
    overlap = (set(HEADER_KEYS) | set(COLUMN_KEYS)) & set(INDEX)
    assert overlap == {"revoke", "renons", "ренонс"}  # the revoker's column, not a cell's result


def test_a_sheet_of_no_deals_starts_the_session_only():
    sheet = parse_sheet(HEADER + COLUMNS)
    assert sheet.deal_count == 0 and sheet.dealer is None and dict(sheet.chips) == {
        "Ann": 0, "Ben": 0, "Cat": 0, "Dan": 0,
    }  # fmt: skip
    assert load_preset("classic") == sheet.rules


DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_documented_sheets_are_real_and_the_example_is_the_file():
    """docs/scoresheet.md's sheets read as it says; its first is docs/examples/vecher.csv."""
    blocks = re.findall(r"```csv\n(.*?)```", (DOCS / "scoresheet.md").read_text("utf-8"), re.S)
    example = (DOCS / "examples" / "vecher.csv").read_text("utf-8-sig").replace("\r\n", "\n")
    assert blocks[0] == example
    russian, english = (parse_sheet(text) for text in blocks)
    assert (russian.deal_count, dict(russian.chips), russian.pot) == (
        20,
        {"Борис": 18, "Аня": 27, "Гена": -51, "Лена": -3},
        9,
    )
    # Examples 1-5 (A 0, B +15, C -15, D +16, E -16), a pass, then Cat's three made with
    # Cat and Dan peeping (Ben deals): Cat +12 -1, Dan -3 -1, the others -3; the pot 2.
    assert dict(english.chips) == {"Ann": -3, "Ben": 12, "Cat": -4, "Dan": 12, "Eve": -19}
    assert english.pot == 2


CELLS = st.sampled_from(
    ["", "Ann", "ben", "Zed", "three", "три", "nap", "pass", "пас", "made", "без", "не взял",
     "revoke", "ренонс Ann", "3", "9", "Ann=2", "Ann, Ben", '"', "#", ";", ","]
)  # fmt: skip


@settings(max_examples=150)
@given(
    st.lists(st.lists(CELLS | st.text(max_size=6), max_size=9), max_size=4),
    st.sampled_from([";", ","]),
)
def test_any_rows_give_a_sheet_or_a_refusal_naming_a_line(rows, separator):
    """Whatever is typed under the headings, the answer is a sheet or one `SheetError`
    naming the line, never another exception."""
    text = (HEADER + COLUMNS).replace(";", separator)
    text += "".join(separator.join(cells) + "\n" for cells in rows)
    try:
        sheet = parse_sheet(text)
    except SheetError as error:
        assert error.line is not None and str(error).startswith(f"line {error.line}: ")
    else:
        assert sum(sheet.chips.values()) + sheet.pot == 0


def test_a_result_written_as_how_many_short_keeps_the_tricks_taken():
    """`без двух` in the result column: failed two tricks short, the tricks taken kept
    (one, on three), as the sheet a table writes it and `hands` shows it back."""
    sheet = parse_sheet(
        "партия;пятница\nигра;russian\nигроки;Борис;Аня;Гена\n"
        "играет;назначение;исход\nБорис;три;без двух\n"
    )
    (deal,) = sheet.deals
    assert deal.options == DealOptions(bid="три", by="Борис", short=2)
    refused = pytest.raises(SheetError, match="строка 5")
    with speaking("ru"), refused:
        parse_sheet(
            "партия;пятница\nигра;russian\nигроки;Борис;Аня;Гена\n"
            "играет;назначение;исход\nБорис;три;без пяти\n"
        )
