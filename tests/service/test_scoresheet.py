"""A typed paper score sheet written through the session service (docs/scoresheet.md):
the Russian evening of docs/examples/vecher.csv comes to the money worked out by hand
from docs/rules.md ("russian"), and a sheet that cannot be written writes nothing."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from napledger.core.errors import NapError
from napledger.core.options import DealOptions
from napledger.core.scoresheet import SheetDeal
from napledger.core.words import speaking
from napledger.service.api import Database
from napledger.service.scoresheet import SheetError, read_sheet, write_sheet

VECHER = Path(__file__).resolve().parents[2] / "docs" / "examples" / "vecher.csv"

# docs/examples/vecher.csv worked by hand, in chips (1 chip = 2,50 ₽), from docs/rules.md's
# russian: the dealer antes 1 into the box every deal; made n: each of the 3 others pays
# the bidder n (+3n); failed n: the bidder pays each n and n into the box (-4n); napoleon
# made: 5 from each and the whole box; napoleon failed: 5 to each and the box as much as
# it holds (it doubles); a revoking opponent alone pays the bidder 3n; a revoking bidder
# pays as failed. Б Борис, А Аня, Г Гена, Л Лена; the deal goes round Б А Г Л.
#
#  deal dealer  what                         Б     А     Г     Л    box after
#   1   Б   А три, взяла                    -3    +9    -3    -3     1
#   2   А   Г четыре, 2 взятки: без         +4    +4   -16    +4     2+4 = 6
#   3   Г   Л два, сыграла                  -2    -2    -2    +6     7
#   4   Л   пас                              .     .     .     .     8
#   5   Б   Б наполеон, взял: +15 и клад 9 +24    -5    -5    -5     0
#   6   А   Б один, без                     -4    +1    +1    +1     1+1 = 2
#   7   Г   А пять, 5                       -5   +15    -5    -5     3
#   8   Л   Г три, ренонс: Лена              .     .    +9    -9     4
#   9   Б   Л четыре, не взяла              +4    +4    +4   -16     5+4 = 9
#  10   А   Г наполеон, без: 5 каждому     +5    +5   -25    +5     10+10 = 20
#           и в коробку столько, сколько в ней (10)
#  11   Г   пас                              .     .     .     .     21
#  12   Л   А две, взяла (прикупила одну)   -2    +6    -2    -2     22
#  13   Б   Б три, ренонс Борис: как без   -12    +3    +3    +3     23+3 = 26
#  14   А   Л наполеон, 5: +15 и клад 27    -5    -5    -5   +42     0
#  15   Г   Б 2, взял 3                     +6    -2    -2    -2     1
#  16   Л   Г один, взял                    -1    -1    +3    -1     2
#  17   Б   пас                              .     .     .     .     3
#  18   А   А четыре, 4                     -4   +12    -4    -4     4
#  19   Г   Л три, 1 взятка: без            +3    +3    +3   -12     5+3 = 8
#  20   Л   Б наполеон, ренонс: Аня        +15   -15     .     .     9
#
# The deals: Б 23, А 32, Г -46, Л 2; each dealt five times, 5 chips of ante each:
# Борис 23 - 5 = 18, Аня 32 - 5 = 27, Гена -46 - 5 = -51, Лена 2 - 5 = -3, box 9
# (18 + 27 - 51 - 3 + 9 = 0). Money at 2,50 ₽ a chip: Борис +45,00, Аня +67,50,
# Гена -127,50, Лена -7,50, the box 22,50.
VECHER_CHIPS = {"Борис": 18, "Аня": 27, "Гена": -51, "Лена": -3}
VECHER_MONEY = {"Борис": "45.00", "Аня": "67.50", "Гена": "-127.50", "Лена": "-7.50"}
# Settled as if closed now, the box split (docs/rules.md): 9 = 2 each and the odd chip to
# the first seat, Борис: Борис 18 + 3 = 21, Аня 27 + 2 = 29, Гена -51 + 2 = -49, Лена
# -3 + 2 = -1 -> Гена pays 122,50 ₽, Лена 2,50 ₽; Борис gets 52,50 ₽ and Аня 72,50 ₽.


@pytest.fixture
def database():
    with Database() as opened:  # NAPLEDGER_DB: the test's own database
        yield opened


def test_the_russian_evening_imports_to_the_money_worked_by_hand(database):
    sheet = read_sheet(VECHER)
    assert (sheet.name, sheet.deal_count) == ("вечер у Бориса", 20)
    with database.write() as tx:
        session_id = write_sheet(tx, sheet)
    with database.read() as tx:
        session = tx.session(str(session_id))
        board = session.scoreboard()
        settlement = session.settlement()
        assert tx.verify().problems == []
    assert (board.session.name, board.session.currency, board.session.language) == (
        "вечер у Бориса",
        "RUB",
        "ru",
    )
    assert board.chip_value == Decimal("2.50") and board.rules.name == "russian"
    assert board.seating == ("Борис", "Аня", "Гена", "Лена")
    assert dict(board.chips) == VECHER_CHIPS
    assert board.pot == 9
    assert {p: board.money(c) for p, c in board.chips.items()} == VECHER_MONEY
    assert board.money(board.pot) == "22.50"
    assert board.hands == 20 and board.next_dealer == "Борис"
    paid: dict[str, Decimal] = {}
    for t in settlement.transfers:
        paid[t.payer] = paid.get(t.payer, Decimal(0)) - t.amount
        paid[t.payee] = paid.get(t.payee, Decimal(0)) + t.amount
    assert paid == {
        "Борис": Decimal("52.50"),
        "Аня": Decimal("72.50"),
        "Гена": Decimal("-122.50"),
        "Лена": Decimal("-2.50"),
    }
    # What the core's own playing of the sheet said it would come to: the same.
    assert dict(sheet.chips) == VECHER_CHIPS and sheet.pot == 9


def test_a_name_given_replaces_the_headers_and_progress_is_told(database):
    sheet = read_sheet(VECHER)
    told: list[int] = []
    with database.write() as tx:
        first = write_sheet(tx, sheet, progress=told.append)
        second = write_sheet(tx, sheet, name="вечер (копия)")
    with database.read() as tx:
        names = {s.session.id: s.session.name for s in tx.sessions()}
    assert names == {first: "вечер у Бориса", second: "вечер (копия)"}
    assert told == list(range(1, 21))


def sessions(database: Database) -> list[str]:
    with database.read() as tx:
        return [s.session.name for s in tx.sessions()]


def test_a_row_the_service_refuses_names_its_line_and_writes_nothing(database):
    sheet = read_sheet(VECHER)
    broken = list(sheet.deals)
    broken[12] = SheetDeal(22, DealOptions(bid="три", by="Борис", buys=(("Гена", 1),)), False)
    with pytest.raises(SheetError) as caught, database.write() as tx:
        write_sheet(tx, replace(sheet, deals=tuple(broken)))
    assert caught.value.line == 22 and str(caught.value).startswith("line 22: ")
    assert "Гена" in str(caught.value)  # only the bidder buys, in russian
    assert sessions(database) == []


def test_a_name_already_taken_writes_nothing_more(database):
    sheet = read_sheet(VECHER)
    with database.write() as tx:
        write_sheet(tx, sheet)
    with pytest.raises(NapError, match="already a session called"), database.write() as tx:
        write_sheet(tx, sheet)
    assert sessions(database) == ["вечер у Бориса"]


def test_a_file_that_is_not_utf8_is_refused_naming_its_line(tmp_path):
    sheet = tmp_path / "cp1251.csv"
    sheet.write_bytes(b"session;x\ngame;russian\n" + "игроки;Борис\n".encode("cp1251"))
    with pytest.raises(SheetError, match=r"^line 3: .*not UTF-8 text") as caught:
        read_sheet(sheet)
    assert caught.value.line == 3


def test_a_missing_file_or_a_folder_is_one_clear_line(tmp_path):
    with pytest.raises(NapError, match=r"cannot read .*nothing\.csv"):
        read_sheet(tmp_path / "nothing.csv")
    with pytest.raises(NapError, match="is not a regular file"):
        read_sheet(tmp_path)


def test_a_missing_file_is_said_in_the_tables_language(tmp_path):
    """The system's reason is napledger's own words, not the C library's English."""
    with speaking("ru"), pytest.raises(NapError) as caught:
        read_sheet(tmp_path / "nothing.csv")
    assert str(caught.value).endswith("нет такого файла или папки")


def test_a_rule_file_is_found_beside_the_sheet(tmp_path, database):
    rules = Path(__file__).resolve().parents[2] / "napledger/core/rules/books/pool-nap.toml"
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "ours.toml").write_text(rules.read_text("utf-8"), "utf-8")
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        "session,pool night\ngame,house/ours.toml\nplayers,Ann,Ben,Cat,Dan\n"
        "bidder,bid,result\nAnn,three,made\n",
        "utf-8",
    )
    read = read_sheet(sheet)
    assert read.rules.title == read_rules_title(rules)
    with database.write() as tx:
        session_id = write_sheet(tx, read)
    with database.read() as tx:
        assert tx.session(str(session_id)).scoreboard().chips == read.chips


def read_rules_title(path: Path) -> str:
    import tomllib

    return tomllib.loads(path.read_text("utf-8"))["title"]
