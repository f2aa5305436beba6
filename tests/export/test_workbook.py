"""The Excel writer: build small sessions by hand, write them, read the file back."""

from __future__ import annotations

import dataclasses
import errno
import functools
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from napledger.core.errors import NapError
from napledger.core.options import DealOptions
from napledger.core.read.report import SessionReport
from napledger.core.read.said import pot_at_close
from napledger.core.rules import Rules, load_preset
from napledger.core.rules.texts import rule_text
from napledger.core.settle import settle
from napledger.export import timeline
from napledger.export.cells import excel_datetime
from napledger.export.workbook import write_workbook
from napledger.service.api import Database

T0 = datetime(2026, 12, 1, 20, 0)
GREY = "FF808080"
HOSTILE = ("=SUM(A1)", "+44 Dave", "-1+2", "@cmd", "#N/A", "=1+1")


def evening(
    players: Sequence[str] = ("Ann", "Bob", "Cat"),
    name: str = "Friday nap",
    currency: str = "GBP",
    chip_value: Decimal = Decimal("0.05"),
    variant: str = "classic",
    plays: Sequence[tuple[str, Any]] | None = None,
    close: str | None = None,
    before: Sequence[tuple[str, Any]] | None = None,
    title: str | None = None,
    rules: Rules | None = None,
    **info: Any,
) -> SessionReport:
    """A session played through the service, read as the workbook reads it.

    By default four deals: Ann's three made; Bob's four, first recorded failed and then
    corrected to made, with Ann peeping and Cat buying 2 (3 chips of fees into the pot);
    a pass; a voided revoke. Final chips Ann +1, Bob +5, Cat -9 and 3 in the pot.
    `before`: the plays of a session closed before it, its pot carried into this one.
    `info` replaces what the session's row says (`created_at`, `id`...); `title`, the
    game's name.
    """
    a, b, c = players[:3]
    if plays is None:
        plays = [
            ("record", DealOptions(bid="three", by=a, tricks=3)),
            ("record", DealOptions(bid="four", by=b, tricks=3)),
            ("amend", (2, DealOptions(tricks=4, peeps=(a,), buys=((c, 2),), note=NOTE))),
            ("pass", None),
            ("record", DealOptions(bid="three", by=c, revoke=a)),
            ("void", 4),
        ]
    first = None if before is None else tuple(before)
    report = _played(tuple(players), currency, chip_value, variant, tuple(plays), close, first)
    # What a report reads beside the session's row: set by hand to try the writer.
    beside = {k: info.pop(k) for k in ("net", "carried_to", "carried_from") if k in info}
    board = report.board
    # Any name, even one the service would clean, reaches the writer as typed here.
    fields = {"created_at": T0, "name": name, **info}
    board = dataclasses.replace(board, session=board.session._replace(**fields))
    if title is not None:
        board = dataclasses.replace(board, rules=dataclasses.replace(board.rules, title=title))
    if rules is not None:
        board = dataclasses.replace(board, rules=rules)
    return dataclasses.replace(report, board=board, **beside)


@functools.cache  # each evening played once: a played session takes a database
def _played(
    players: tuple[str, ...],
    currency: str,
    chip_value: Decimal,
    variant: str,
    plays: tuple[tuple[str, Any], ...],
    close: str | None,
    before: tuple[tuple[str, Any], ...] | None,
) -> SessionReport:
    with tempfile.TemporaryDirectory() as folder, Database(f"{folder}/nap.db") as db:
        came = None
        if before is not None:
            came = "thu"
            with db.write() as tx:
                tx.new_session(came, load_preset(variant), list(players), chip_value, currency)
            _play(db, came, before)
            with db.write() as tx:
                tx.session(came).close("carry")
        with db.write() as tx:
            tx.new_session(
                "fri", load_preset(variant), list(players), chip_value, currency, carry_from=came
            )
        _play(db, "fri", plays)
        if close is not None:
            with db.write() as tx:
                tx.session("fri").close(close)
        with db.read() as tx:
            report = tx.session("fri").report()
            deals = list(report.deals)  # kept, to be read after the transaction
    return dataclasses.replace(report, deals=deals)


def _play(db: Database, name: str, plays: Sequence[tuple[str, Any]]) -> None:
    for kind, args in plays:
        with db.write() as tx:
            s = tx.session(name)
            if kind == "record":
                s.record(args)
            elif kind == "amend":
                s.amend(*args)
            elif kind == "pass":
                s.pass_()
            elif kind == "void":
                s.void(args)


NOTE = "amended: Bob took the fourth trick"


def write(tmp_path: Path, *sessions: SessionReport) -> Path:
    path = tmp_path / "out.xlsx"
    write_workbook(list(sessions), path, exists="replace")
    return path


def table_rows(ws: Any, name: str) -> list[dict[str, Any]]:
    """The body rows of a table as {header: cell}; the header row must match the table."""
    table = ws.tables[name]
    rows = list(ws[table.ref])
    headers = [cell.value for cell in rows[0]]
    assert headers == table.column_names
    return [dict(zip(headers, row, strict=True)) for row in rows[1:]]


def money(cell: Any) -> Decimal:
    assert cell.data_type == "n", f"{cell.coordinate} is not a number: {cell.value!r}"
    assert not isinstance(cell.value, str)
    return Decimal(str(cell.value))


def sheet_xml(path: Path) -> dict[str, str]:
    with zipfile.ZipFile(path) as archive:
        return {
            name: archive.read(name).decode()
            for name in archive.namelist()
            if name.startswith("xl/worksheets/sheet")
        }


# --- Summary -----------------------------------------------------------------------


def test_summary_chips_are_the_ledger_net_and_money_is_an_exact_number(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    net: Counter[str] = Counter()
    for row in table_rows(wb["Ledger"], "LedgerTable"):
        net[row["Payer"].value] -= row["Chips"].value
        net[row["Payee"].value] += row["Chips"].value
        assert money(row["Money"]) == row["Chips"].value * Decimal("0.05")

    balances = table_rows(wb["Summary"], "Session1")
    # In the board's order, as the terminal lists them: most chips first.
    assert [r["Player"].value for r in balances] == ["Bob", "Ann", "Cat", "left in the pot"]
    for row in balances:
        party = "pot" if row["Player"].value == "left in the pot" else row["Player"].value
        assert row["Chips"].value == net[party]
        assert money(row["Money"]) == net[party] * Decimal("0.05")
        assert (
            row["Money"].number_format == '+"£"#,##0.00;-"£"#,##0.00;"£"0.00'
        )  # a gain shows its plus
    (session,) = table_rows(wb["Summary"], "SessionsTable")
    assert session["Pot (chips)"].value == net["pot"] == 3
    assert money(session["Pot (money)"]) == Decimal("0.15")
    assert money(session["Chip value"]) == Decimal("0.05")
    assert session["Name"].value == "Friday nap"
    assert session["Deals"].value == 3


def test_each_session_block_is_headed_by_its_name(tmp_path: Path) -> None:
    ws = openpyxl.load_workbook(write(tmp_path, evening(), evening(id=8, name="Late game")))[
        "Summary"
    ]
    texts = [row[0] for row in ws.iter_rows(values_only=True)]
    first, second = texts.index("Friday nap"), texts.index("Late game")
    assert first < second
    for heading in (first, second):
        assert texts[heading + 2] == "Player"  # a line of details, then its own header row
    assert ws.cell(first + 1, 1).font.b and ws.cell(first + 3, 1).font.b
    assert ws.freeze_panes is None  # nothing frozen over blocks with other headers


def test_the_evening_has_one_settlement_the_same_as_settle_over_its_sessions(
    tmp_path: Path,
) -> None:
    """Two sessions whose separate plans take four payments square in two together."""
    one = evening(net={"Ann": Decimal("-5"), "Bob": Decimal("5"), "Cat": Decimal("0")})
    two = evening(
        id=8,
        name="Late game",
        net={"Ann": Decimal("3"), "Bob": Decimal("-7"), "Cat": Decimal("4")},
    )
    wb = openpyxl.load_workbook(write(tmp_path, one, two))
    totals = {r["Player"].value: r for r in table_rows(wb["Summary"], "EveningTotals")}
    assert {p: money(r["Money"]) for p, r in totals.items()} == {
        "Ann": Decimal("-2"),
        "Bob": Decimal("-2"),
        "Cat": Decimal("4"),
    }
    assert totals["Cat"]["Chips"].value == 80  # one chip value: chips add up too
    plan = [
        (r["Pays"].value, r["To"].value, money(r["Amount"]))
        for r in table_rows(wb["Summary"], "EveningSettlement")
    ]
    expected = settle({"Ann": Decimal("-2"), "Bob": Decimal("-2"), "Cat": Decimal("4")})
    assert plan == [(p.payer, p.payee, p.amount) for p in expected]
    assert len(plan) == 2


def test_evening_totals_show_chips_only_where_the_chip_value_is_the_same(tmp_path: Path) -> None:
    dear = evening(
        id=8, chip_value=Decimal("0.10"), net={"Ann": Decimal("0.10"), "Bob": Decimal("-0.10")}
    )
    wb = openpyxl.load_workbook(write(tmp_path, evening(), dear))
    totals = table_rows(wb["Summary"], "EveningTotals")
    assert list(totals[0]) == ["Player", "Money"]
    assert money(totals[0]["Money"]) == Decimal("0.20")  # most money first: Ann's


def test_each_currency_is_totalled_and_settled_apart(tmp_path: Path) -> None:
    rub = evening(id=8, currency="RUB", chip_value=Decimal("5"), net={"Ann": 5, "Cat": -5})
    wb = openpyxl.load_workbook(write(tmp_path, evening(), rub))
    pounds = table_rows(wb["Summary"], "EveningSettlement1")
    roubles = table_rows(wb["Summary"], "EveningSettlement2")
    assert [(r["Pays"].value, r["To"].value) for r in roubles] == [("Cat", "Ann")]
    assert roubles[0]["Amount"].number_format == '#,##0.00 "₽"'
    assert pounds[0]["Amount"].number_format == '"£"#,##0.00'


def test_money_formats_follow_the_currency_and_the_chip_value(tmp_path: Path) -> None:
    rub = evening(id=8, currency="RUB", chip_value=Decimal("5"))
    odd = evening(id=9, currency='"XYZ"', chip_value=Decimal("0.125"))
    wb = openpyxl.load_workbook(write(tmp_path, rub, odd))
    first, second = (table_rows(wb["Summary"], f"Session{n}") for n in (1, 2))
    assert first[0]["Money"].number_format == '+#,##0.00 "₽";-#,##0.00 "₽";0.00 "₽"'
    assert second[0]["Money"].number_format.startswith('+#,##0.000 "XYZ";')
    cat = next(r for r in second if r["Player"].value == "Cat")
    assert money(cat["Money"]) == Decimal("-9") * Decimal("0.125")


# --- Deals ------------------------------------------------------------------------


def test_running_totals_count_only_live_deals(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    rows = table_rows(wb["Deals"], "DealsTable")
    got = [
        (
            r["Deal"].value,
            r["Revision"].value,
            r["Status"].value,
            r["Ann total"].value,
            r["Bob total"].value,
            r["Cat total"].value,
        )
        for r in rows
    ]
    assert got == [
        (1, 1, "live", 6, -3, -3),
        (2, 1, "replaced", None, None, None),
        (2, 2, "live", 1, 5, -9),
        (3, 1, "live", 1, 5, -9),
        (4, 1, "voided", None, None, None),
    ]
    # A replaced deal shows what it had paid as text, which no SUM of the column counts.
    assert [r["Bob change"].value for r in rows] == [-3, "(-8)", 8, None, None]
    assert rows[2]["Bob change"].number_format == "+#,##0;-#,##0;0"


def test_deals_show_money_beside_chips_and_what_a_replaced_deal_had_paid(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    rows = table_rows(wb["Deals"], "DealsTable")
    header = list(rows[0])
    assert header.index("Bob money") == header.index("Bob change") + 1
    assert money(rows[2]["Bob money"]) == Decimal("0.40")
    assert rows[2]["Bob money"].number_format == '+"£"#,##0.00;-"£"#,##0.00;"£"0.00'
    replaced = rows[1]
    assert replaced["Bob change"].value == "(-8)"
    assert replaced["Bob change"].font.color.rgb == GREY
    # Nothing a person would add up counts it: the live money sums to the Summary's.
    assert replaced["Bob money"].value is None and replaced["Bob total"].value is None
    bob = sum(money(r["Bob money"]) for r in rows if r["Bob money"].value is not None)
    assert bob == 5 * Decimal("0.05")


def test_voided_and_replaced_deals_are_grey_and_live_ones_are_not(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    for row in table_rows(wb["Deals"], "DealsTable"):
        written = [c for c in row.values() if c.value is not None]
        grey = [c.font.color is not None and c.font.color.rgb == GREY for c in written]
        if row["Status"].value == "live":
            assert not any(grey)
        else:
            assert all(grey), row["Status"].value


def test_deal_row_shows_what_happened(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    rows = table_rows(wb["Deals"], "DealsTable")
    amended = {k: c.value for k, c in rows[2].items()}
    assert amended["Session"] == "Friday nap"  # its name, as the reader knows it
    assert amended["Dealer"] == amended["Bidder"] == "Bob"
    assert amended["Bid"] == "four"
    assert amended["Outcome"] == "made (4 tricks)"
    assert amended["Peeps, buys"] == "Ann peeped; Cat bought 2"  # as hands says it
    assert amended["Note"] == NOTE
    recorded = next(d.recorded_at for d in evening().deals if d.revision == 2)
    # to the millisecond, as a spreadsheet keeps a time
    assert abs(amended["Recorded at"] - excel_datetime(recorded)) < timedelta(milliseconds=1)
    assert rows[2]["Recorded at"].number_format == "yyyy-mm-dd hh:mm"
    assert rows[3]["Pot"].value == 3
    assert rows[4]["Outcome"].value == "revoke by Ann"  # the revoker, named


def test_sessions_keep_their_own_totals_and_players(tmp_path: Path) -> None:
    first = evening()
    second = evening(("Ann", "Dan", "Eve"), id=8, name="Saturday")
    wb = openpyxl.load_workbook(write(tmp_path, first, second))
    rows = table_rows(wb["Deals"], "DealsTable")
    assert len(rows) == 10
    last_of_second = rows[-2]  # the last live deal; the final row is voided
    assert last_of_second["Session"].value == "Saturday"
    assert (last_of_second["Ann total"].value, last_of_second["Dan total"].value) == (1, 5)
    assert last_of_second["Bob total"].value is None  # Bob did not sit on Saturday
    assert rows[0]["Dan total"].value is None
    balance = table_rows(wb["Balance"], "BalanceTable")
    assert [(r["Session"].value, r["Deal"].value) for r in balance] == [
        ("Friday nap", 0),
        ("Friday nap", 1),
        ("Friday nap", 2),
        ("Friday nap", 3),
        ("Saturday", 0),
        ("Saturday", 1),
        ("Saturday", 2),
        ("Saturday", 3),
    ]
    ledger = table_rows(wb["Ledger"], "LedgerTable")
    assert {r["Session"].value for r in ledger} == {"Friday nap", "Saturday"}


def test_a_session_name_that_looks_like_a_formula_stays_text(tmp_path: Path) -> None:
    name = '=HYPERLINK("http://x","friday")'
    wb = openpyxl.load_workbook(write(tmp_path, evening(name=name)))
    for sheet, table in (("Deals", "DealsTable"), ("Ledger", "LedgerTable")):
        cells = [r["Session"] for r in table_rows(wb[sheet], table)]
        assert cells and all(c.value == name and c.data_type == "s" for c in cells), sheet
        assert all(c.quotePrefix for c in cells)  # stays text even after an edit


def test_hostile_names_are_written_as_text_never_formulas(tmp_path: Path) -> None:
    a, b, c = HOSTILE[:3]
    session = evening(
        (a, b, c),
        name=HOSTILE[3],
        title=HOSTILE[4],
        plays=[("record", DealOptions(bid="three", by=b, tricks=3, note=HOSTILE[5]))],
    )
    path = write(tmp_path, session)
    wb = openpyxl.load_workbook(path)
    seen: Counter[str] = Counter()
    for ws in wb:
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value in HOSTILE:
                    assert cell.data_type == "s", (ws.title, cell.coordinate)
                    assert cell.quotePrefix or cell.value == "#N/A"
                    seen[cell.value] += 1
    assert set(seen) == set(HOSTILE)
    # Evening totals 1, its settlement 1, the session's block 1, Deals dealer 1,
    # Ledger 4, Balance header 1.
    assert seen[a] == 6
    for name, xml in sheet_xml(path).items():
        # The only formulas are the export's own checks, sums of number cells.
        formulas = re.findall(r"<f>([^<]*)</f>", xml)
        assert all(re.fullmatch(r"SUM\([A-Z]+\d+:[A-Z]+\d+\)", f) for f in formulas), name
        assert "<v>#N/A</v>" not in xml, name
    headers = [cell.value for cell in next(wb["Deals"].iter_rows(max_row=1))]
    assert f"{a} change" in headers


def test_control_characters_and_excel_escapes_survive(tmp_path: Path) -> None:
    names_given = ("_x0041_", "tab\there")
    sessions = [evening(name=n, id=i, plays=[]) for i, n in enumerate(names_given)]
    wb = openpyxl.load_workbook(write(tmp_path, *sessions))
    names = [r["Name"].value for r in table_rows(wb["Summary"], "SessionsTable")]
    # "_x005F_" so Excel shows "_x0041_" rather than "A" (openpyxl reads the escape back
    # as it is stored). A name with a control character is refused before (core/names.py).
    assert names == ["_x005F_x0041_", "tab\there"]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.text(
        st.characters(
            blacklist_categories=("Cs",),
            blacklist_characters="\r\ufffe\uffff",
            min_codepoint=9,
        ),
        min_size=1,
        max_size=20,
    ).filter(lambda s: "_x" not in s and not re.search(r"[\x0b\x0c\x0e-\x1f]", s))
)
def test_any_typed_name_comes_back_as_the_same_text(tmp_path: Path, name: str) -> None:
    session = evening(name=name, plays=[])
    wb = openpyxl.load_workbook(write(tmp_path, session))
    (row,) = table_rows(wb["Summary"], "SessionsTable")
    assert row["Name"].data_type == "s"
    assert row["Name"].value == name


def test_headers_made_from_names_are_unique_table_columns(tmp_path: Path) -> None:
    session = evening(("Al", "Alf", "Session"), plays=[])
    wb = openpyxl.load_workbook(write(tmp_path, session))
    for ws in wb:
        for table in ws.tables.values():
            header = [c.value for c in ws[table.ref][0]]
            assert header == table.column_names
            assert len({h.casefold() for h in header}) == len(header), (ws.title, header)
    balance = [c.value for c in wb["Balance"][1]]
    assert balance[:5] == ["Session", "Deal", "Al chips", "Alf chips", "Session chips"]
    assert balance[5:] == ["Al", "Alf", "Session (2)", "Pot"]


# --- Layout -----------------------------------------------------------------------


def test_headers_are_frozen_and_data_sheets_are_tables(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    assert wb.sheetnames == ["Summary", "Chart", "Deals", "Rules", "Ledger", "Balance"]
    frozen = {ws.title: ws.freeze_panes for ws in wb if ws.title != "Chart"}
    assert frozen == {
        "Summary": None,
        "Deals": "C2",
        "Ledger": "A2",
        "Balance": "C2",
        "Rules": None,
    }
    hidden = [ws.title for ws in wb if ws.sheet_state == "hidden"]
    assert hidden == ["Ledger", "Balance"]  # data, not for printing
    for title in ("Deals", "Ledger", "Balance"):
        ws = wb[title]
        (table,) = ws.tables.values()
        assert table.ref.startswith("A1:")
        assert table.ref.endswith(str(ws.max_row))
        assert table.autoFilter is not None
    assert len(table_rows(wb["Ledger"], "LedgerTable")) == 6


def test_columns_are_wide_enough_for_their_text(tmp_path: Path) -> None:
    long_name = "Bartholomew Fitzgerald"
    wb = openpyxl.load_workbook(write(tmp_path, evening((long_name, "Bob", "Cat"))))
    summary = wb["Summary"]
    assert summary.column_dimensions["A"].width >= len(long_name)  # Player column
    deals = wb["Deals"]
    # Deals is printed: a name column is wide enough for most names, not for any.
    assert deals.column_dimensions["D"].width >= 10  # Dealer
    assert deals.column_dimensions["G"].width >= len("made (5 tricks)")  # Outcome


def test_no_header_is_broken_inside_a_word(tmp_path: Path) -> None:
    """Short names make narrow columns; a header wraps at its spaces, never mid-word.

    Seen in LibreOffice: "Deale / r", "Purch / ases". Each column is at least its
    header's longest word wide, with room for bold letters and the cell's margins.
    """
    wb = openpyxl.load_workbook(write(tmp_path, evening(("Al", "Bo", "Cy"), name="Fri")))
    for title in ("Deals", "Ledger", "Balance", "Rules"):
        ws = wb[title]
        for table in ws.tables.values():
            for cell in ws[table.ref.split(":")[0][1:]]:
                if cell.value is None:
                    continue
                longest = max(len(word) for word in str(cell.value).split())
                width = ws.column_dimensions[cell.column_letter].width
                assert width >= longest + 2, (title, cell.value, width)
                assert cell.alignment.wrap_text, (title, cell.value)


def test_text_beside_a_right_aligned_column_is_set_in(tmp_path: Path) -> None:
    """ "Revision" and "Recorded at" sit right, against the text column after them:
    without an indent the headers read "Revision Status", "Recorded at Note"."""
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    for sheet, table, columns in (
        ("Deals", "DealsTable", ("Status", "Note")),
        ("Ledger", "LedgerTable", ("Payer",)),
    ):
        header = {c.value: c for c in wb[sheet][1]}
        rows = table_rows(wb[sheet], table)
        for name in columns:
            assert header[name].alignment.indent == 1, name
            body = [r[name] for r in rows if r[name].value is not None]
            assert body and all(c.alignment.indent == 1 for c in body), name


def test_rules_sheet_has_each_sessions_stakes_and_settings(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    stakes = table_rows(wb["Rules"], "StakesTable")
    assert [
        (
            r["Bid"].value,
            r["Tricks"].value,
            r["Made: each opponent pays"].value,
            r["Failed: pays each opponent"].value,
        )
        for r in stakes
    ] == [
        (b.name, "no tricks" if b.misere else b.tricks, b.win, b.lose)
        for b in load_preset("classic").bids
    ]
    settings_ = {r["Setting"].value: r for r in table_rows(wb["Rules"], "SettingsTable")}
    assert settings_["dealer_sits_out_from"]["Value"].value == 6  # a number, not text
    assert settings_["misere"]["Value"].value == "on"
    assert settings_["dealer_peeps"]["Value"].value == "free"
    assert "dealer sits the deal out" in settings_["dealer_sits_out_from"]["What it does"].value


def test_rules_mark_off_bids_and_say_what_each_does_to_the_pot(tmp_path: Path) -> None:
    classic = load_preset("classic")
    bids = tuple(
        dataclasses.replace(b, fail_pot=3) if b.name == "three" else b for b in classic.bids
    )
    changed = dataclasses.replace(
        classic.settings, pool=True, pool_ante=1, pool_fail_doubles=True, peep_fee=2
    )
    rules = dataclasses.replace(classic, bids=bids, settings=changed)
    wb = openpyxl.load_workbook(write(tmp_path, evening(rules=rules)))
    rows = {r["Bid"].value: r for r in table_rows(wb["Rules"], "StakesTable")}
    assert rows["two"]["In play"].value == "off"
    assert rows["two"]["Bid"].font.color.rgb == GREY
    assert rows["three"]["In play"].value == "yes"
    assert (
        rows["three"]["What it does to the pot"].value == "failed: also pays 3 chips into the pot"
    )
    assert rows["nap"]["What it does to the pot"].value == (
        "made: takes the whole pot; failed: pays the pot as much as it holds (doubles it)"
    )
    notes = {
        r["Setting"].value: r["What it does"].value
        for r in table_rows(wb["Rules"], "SettingsTable")
    }
    assert (
        notes["pool"] == "every seated player antes 1 into the pot each deal, passed-out ones too"
    )
    assert notes["peep_fee"] == "each player who peeps pays 2 into the pot"


def test_empty_export_still_makes_a_readable_workbook(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path))
    assert wb["Summary"]["A2"].value == "No sessions to report."
    assert wb["Chart"]["A1"].value == "No deals to draw."


def test_aware_datetimes_are_shown_in_local_time(tmp_path: Path) -> None:
    aware = datetime(2026, 12, 1, 23, 30, tzinfo=UTC)
    wb = openpyxl.load_workbook(write(tmp_path, evening(created_at=aware)))
    (row,) = table_rows(wb["Summary"], "SessionsTable")
    assert row["Created"].value == aware.astimezone().replace(tzinfo=None)


# --- Chart ------------------------------------------------------------------------


def chart_xml(path: Path, number: int = 1) -> str:
    with zipfile.ZipFile(path) as archive:
        return archive.read(f"xl/charts/chart{number}.xml").decode()


def chart_count(path: Path) -> int:
    with zipfile.ZipFile(path) as archive:
        return sum(n.startswith("xl/charts/chart") for n in archive.namelist())


def series_xml(chart: str) -> dict[str, str]:
    """Each series' XML by its title cell, empty elements written ``<a/>``."""
    chart = chart.replace(" />", "/>")
    return {
        found.group(1): found.group(0)
        for found in re.finditer(r"<ser>.*?<tx><strRef><f>([^<]*)</f>.*?</ser>", chart)
    }


def closed_evening() -> list[SessionReport]:
    """Friday carries its 3 chips to Saturday, whose close splits its pot of 6 (2 each)."""
    friday = evening(close="carry", carried_to="Saturday")
    a, b, c = friday.players
    saturday = evening(
        id=8,
        name="Saturday",
        before=FRIDAY,
        plays=[("record", DealOptions(bid="three", by=b, tricks=3, peeps=(a, c, b)))],
        close="split",
        carried_from="Friday nap",
    )
    return [friday, saturday]


FRIDAY = (
    ("record", DealOptions(bid="three", by="Ann", tricks=3)),
    ("record", DealOptions(bid="four", by="Bob", tricks=3)),
    ("amend", (2, DealOptions(tricks=4, peeps=("Ann",), buys=(("Cat", 2),), note=NOTE))),
    ("pass", None),
    ("record", DealOptions(bid="three", by="Cat", revoke="Ann")),
    ("void", 4),
)


def test_one_evening_chart_draws_every_player_and_the_pot_apart_in_grey(tmp_path: Path) -> None:
    path = write(tmp_path, *closed_evening())
    assert chart_count(path) == 1  # one chart for the evening, not one per session
    chart = chart_xml(path)
    series = series_xml(chart)
    assert len(series) == 4  # Ann, Bob, Cat and the pot
    dashes = [re.search(r'<a:prstDash val="(\w+)"', x).group(1) for x in series.values()]  # type: ignore[union-attr]
    markers = [re.search(r'<symbol val="(\w+)"', x).group(1) for x in series.values()]  # type: ignore[union-attr]
    assert len(set(dashes)) == len(dashes), dashes
    assert len(set(markers)) == len(markers), markers
    assert chart.count('<smooth val="0"') == 4  # no curve overshooting a total
    assert '<tickLblPos val="low"' in chart


def test_series_names_are_the_balance_headers_so_any_name_shows_as_typed(tmp_path: Path) -> None:
    name = '=HYPERLINK("http://x")'
    path = write(tmp_path, evening(("Ann", "Bob", name)))
    chart = chart_xml(path)
    titles = re.findall(r"<tx><strRef><f>([^<]*)</f>", chart)
    header = openpyxl.load_workbook(path)["Balance"][1]
    named = {c.value: f"'Balance'!${c.column_letter}$1" for c in header}
    assert titles == [named["Ann"], named["Bob"], named[name], named["Pot"]]
    assert "HYPERLINK" not in chart  # never written where a program could read a formula


def test_last_running_totals_on_deals_and_the_chart_are_the_summary(tmp_path: Path) -> None:
    sessions = closed_evening()
    wb = openpyxl.load_workbook(write(tmp_path, *sessions))
    deals = table_rows(wb["Deals"], "DealsTable")
    for number, session in enumerate(sessions, 1):
        summary = {
            r["Player"].value: r["Chips"].value
            for r in table_rows(wb["Summary"], f"Session{number}")
        }
        rows = [r for r in deals if r["Session"].value == session.name]
        assert rows[-1]["Deal"].value == "close"
        for player in session.players:
            assert (
                rows[-1][f"{player} total"].value == summary[player] == session.board.chips[player]
            )
    saturday = [r for r in deals if r["Session"].value == "Saturday"]
    assert saturday[0]["Deal"].value == "open"
    assert saturday[0]["Outcome"].value == "pot of 3 carried in from Friday nap"
    said = pot_at_close(sessions[1].closes[-1].pot, "split")
    assert saturday[-1]["Outcome"].value == said
    assert saturday[-1]["Ann change"].value == sessions[1].close_shares["Ann"]
    # The chart's last points: each player's money over the evening, the pot emptied.
    balance = table_rows(wb["Balance"], "BalanceTable")
    last = balance[-1]
    evening_money = {
        p: sum(s.board.chips[p] for s in sessions) * Decimal("0.05") for p in ("Ann", "Bob", "Cat")
    }
    assert {p: money(last[p]) for p in evening_money} == evening_money
    assert money(last["Pot"]) == 0


def test_each_session_sums_to_zero_with_its_pot_and_a_check_formula(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, *closed_evening()))
    ws = wb["Summary"]
    for number in (1, 2):
        table = ws.tables[f"Session{number}"]
        rows = table_rows(ws, f"Session{number}")
        assert sum(r["Chips"].value for r in rows) == 0
        last = int(re.findall(r"\d+", table.ref)[-1])
        check = ws.cell(last + 1, 1).value, ws.cell(last + 1, 2).value
        first = int(re.findall(r"\d+", table.ref)[0]) + 1
        assert check == ("Check: sums to zero", f"=SUM(B{first}:B{last})")
    saturday = [r["Player"].value for r in table_rows(ws, "Session2")]
    assert "from Friday nap's pot" in saturday
    lines = [row[0] for row in ws.iter_rows(values_only=True) if row and row[0]]
    assert any(str(t).startswith("Pot (chips): 3 carried in from Friday nap") for t in lines)


def test_the_russian_box_is_charted(tmp_path: Path) -> None:
    """The box grows by the dealer's antes and a failed bid, and a made bid takes it: its
    own line on the chart, where the read model says it stands after each deal."""
    session = evening(
        variant="russian",
        currency="RUB",
        chip_value=Decimal(1),
        plays=[
            ("record", DealOptions(bid="three", by="Ann", tricks=2)),
            ("pass", None),
            ("record", DealOptions(bid="nap", by="Bob", tricks=5)),
        ],
    )
    path = write(tmp_path, session)
    pot = [
        money(r["Pot"]) for r in table_rows(openpyxl.load_workbook(path)["Balance"], "BalanceTable")
    ]
    said = [row.pot for row in session.timeline() if row.counts]
    assert pot == [0, *said] and max(pot) > 0
    assert "Pot" in [c.value for c in openpyxl.load_workbook(path)["Balance"][1]]
    assert len(series_xml(chart_xml(path))) == 4


def test_an_evening_with_no_deals_at_all_has_no_chart(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening(plays=[])))
    assert wb["Chart"]["A1"].value == "No deals to draw."


def test_every_cell_names_one_font_family(tmp_path: Path) -> None:
    """A font with only a colour falls back to the program's own face in LibreOffice."""
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    families = {
        cell.font.name
        for ws in wb
        for row in ws.iter_rows()
        for cell in row
        if cell.value is not None
    }
    assert families == {"Calibri"}


def test_headers_are_bold_on_a_fill_and_numbers_headers_sit_right(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    header = {c.value: c for c in wb["Deals"][1]}
    for cell in header.values():
        assert cell.font.b and cell.fill.fill_type == "solid", cell.value
    assert header["Pot"].alignment.horizontal == "right"
    assert header["Deal"].alignment.horizontal == "right"
    assert header["Ann money"].alignment.horizontal == "right"
    assert header["Dealer"].alignment.horizontal == "left"


def test_sheets_print_on_a4_with_titles_and_page_numbers(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    for ws in wb:
        assert int(ws.page_setup.paperSize) == 9, ws.title  # A4
        assert ws.page_margins.left == 0.5, ws.title
        assert "Friday nap" in ws.oddHeader.left.text, ws.title
        assert ws.oddFooter.center.text == "Page &P of &N", ws.title
    for title in ("Rules", "Ledger", "Balance"):
        assert wb[title].page_setup.fitToWidth == 1, title
        assert wb[title].sheet_properties.pageSetUpPr.fitToPage
    assert wb["Rules"].page_setup.fitToHeight == 1  # one set of rules, one page
    # Summary keeps its blocks whole with breaks, which fit-to-page would drop: a scale.
    assert not wb["Summary"].sheet_properties.pageSetUpPr.fitToPage
    assert wb["Summary"].page_setup.scale
    deals = wb["Deals"]
    assert deals.print_title_rows == "$1:$1"
    assert deals.print_title_cols == "$A:$B"  # every page starts with session and deal
    assert 60 <= int(deals.page_setup.scale) <= 85
    assert wb.properties.title == "Nap evening: Friday nap"
    assert wb.properties.subject


def test_a_letter_locale_prints_on_letter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    wb = openpyxl.load_workbook(write(tmp_path, evening()))
    assert {int(ws.page_setup.paperSize) for ws in wb} == {1}  # US Letter


def test_deals_pages_break_only_between_players(tmp_path: Path) -> None:
    players = ("Annabel", "Bob", "Catherine", "Dominic", "Evelyn", "Fay")
    session = evening(players, plays=[("record", DealOptions(bid="three", by="Bob", tricks=3))])
    ws = openpyxl.load_workbook(write(tmp_path, session))["Deals"]
    first = len(timeline.DEAL_COLUMNS)
    breaks = [brk.id for brk in ws.col_breaks.brk]
    assert breaks, "six players do not fit one portrait page"
    assert all((column - first) % 3 == 0 for column in breaks)  # a player's three together


def test_an_ampersand_in_a_name_is_not_a_page_header_code(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write(tmp_path, evening(name="Bob & Sue's &P night")))
    assert "Bob && Sue's &&P night" in wb["Summary"].oddHeader.left.text


# --- Progress -------------------------------------------------------------------------


def test_progress_calls_add_up_to_the_deals_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timeline, "PROGRESS_EVERY", 2)
    calls: list[int] = []
    write_workbook([evening(), evening(id=8)], tmp_path / "out.xlsx", calls.append)
    assert sum(calls) == 10
    assert calls == [2, 2, 2, 2, 2]


# --- All or nothing -----------------------------------------------------------------


def test_missing_folder_raises_naperror(tmp_path: Path) -> None:
    target = tmp_path / "no such folder" / "out.xlsx"
    with pytest.raises(NapError, match=r"^cannot write .*out\.xlsx: No such file or directory$"):
        write_workbook([evening()], target)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_read_only_folder_raises_naperror(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(NapError, match="Permission denied"):
            write_workbook([evening()], folder / "out.xlsx")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)


def test_unwritable_folder_message_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The read-only folder test above cannot run as root (as CI does), so the
    # refusal the operating system would give is simulated where the file is made.
    from napledger.export import workbook

    def refuse(file: object, mode: str = "r") -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(file))

    monkeypatch.setattr(workbook, "open", refuse, raising=False)
    target = tmp_path / "out.xlsx"
    with pytest.raises(NapError) as caught:
        write_workbook([evening()], target)
    assert str(caught.value) == f"cannot write {target}: Permission denied"
    assert list(tmp_path.iterdir()) == []


def test_os_error_midway_leaves_no_file_and_keeps_the_old_one(tmp_path: Path) -> None:
    target = tmp_path / "out.xlsx"
    target.write_bytes(b"last week's export")

    def disk_full(n: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(NapError) as caught:
        write_workbook([evening()], target, disk_full, exists="replace")
    assert str(caught.value) == f"cannot write {target}: No space left on device"
    assert "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == [target]
    assert target.read_bytes() == b"last week's export"


def test_failed_rename_removes_the_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(src: object, dst: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(NapError, match="Permission denied"):
        write_workbook([evening()], tmp_path / "out.xlsx", exists="replace")
    assert list(tmp_path.iterdir()) == []


def test_other_errors_propagate_and_remove_the_temporary_file(tmp_path: Path) -> None:
    def interrupted(n: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_workbook([evening()], tmp_path / "out.xlsx", interrupted)
    assert list(tmp_path.iterdir()) == []


def test_a_folder_in_the_way_is_reported(tmp_path: Path) -> None:
    (tmp_path / "out.xlsx").mkdir()
    with pytest.raises(NapError, match="is a folder"):
        write_workbook([evening()], tmp_path / "out.xlsx")


def test_the_new_file_has_ordinary_permissions(tmp_path: Path) -> None:
    path = write(tmp_path, evening())
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


# --- Boundaries ----------------------------------------------------------------------


def test_plain_data_does_not_pull_in_openpyxl() -> None:
    code = "import sys, napledger.core.read.report; print('openpyxl' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "False"


def test_a_history_longer_than_excel_allows_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from napledger.export import sheet

    monkeypatch.setattr(sheet, "MAX_ROWS", 6)  # the Ledger needs 1 + 7 rows
    with pytest.raises(NapError, match="too many rows for Excel's Ledger sheet"):
        write(tmp_path, evening())
    assert list(tmp_path.iterdir()) == []


def test_a_header_longer_than_its_column_wraps_onto_a_taller_row(tmp_path: Path) -> None:
    """Excel does not grow a row for wrapped text: the row is given the lines it needs."""
    name = '=HYPERLINK("Cat")'
    wb = openpyxl.load_workbook(write(tmp_path, evening(("Ann", "Bob", name))))
    deals = wb["Deals"]
    header = {c.value: c for c in deals[1]}
    assert header[f"{name} change"].alignment.wrap_text
    # The column is as wide as the name, so the header wraps only at its space.
    # Its columns are kept narrow, so a name longer than them breaks: three lines.
    assert deals.row_dimensions[1].height == 45  # '=HYPERLI' / 'NK("Cat")' / "change"


def test_a_setting_the_game_does_not_have_shows_a_dash_and_the_reason(tmp_path: Path) -> None:
    session = evening(variant="russian", plays=[])
    reason = rule_text(session.rules.why_absent("pool") or "")
    assert reason
    wb = openpyxl.load_workbook(write(tmp_path, session))
    rows = {r["Setting"].value: r for r in table_rows(wb["Rules"], "SettingsTable")}
    assert (rows["pool"]["Value"].value, rows["pool"]["What it does"].value) == ("—", reason)
    assert rows["pool"]["Setting"].font.color.rgb == GREY
    assert rows["dealer_ante"]["What it does"].value.startswith("the dealer puts ")
