"""Four front ends, one evening: random evenings read the same in each of them.

An evening of one or two sessions is played through the service (deals, passes, amends,
voids, undos, joins, leaves, a close with each pot choice, a pot carried into a second
session). Then every place that shows a total is read back: `table --json` and
`hands --json` from the command line, the page's JSON document, and the exported
workbook's Summary (each session and the evening), the last running total of every
player on Deals, the Balance sheet and the chart's last points. They must all agree,
to the chip and to the penny (docs/rules.md: money is chips times the chip's value).
"""

from __future__ import annotations

import csv
import html
import os
import re
import zipfile
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from napledger.core.errors import NapError
from napledger.core.ledger import account_name
from napledger.core.numbers import signed
from napledger.core.options import DealOptions
from napledger.core.read.said import (
    CLOSE,
    OPEN,
    by_chips,
    deal_label,
    pot_at_close,
    pot_carried_in,
    pot_row_label,
    roster_said,
)
from napledger.core.rules import load_preset
from napledger.core.rules.load import with_overrides
from napledger.core.seating import RosterChange
from napledger.core.words import speaking
from napledger.service.api import Database, SessionAPI
from napledger.web.app import create_app
from tests.conftest import Nap
from tests.export.test_workbook import table_rows
from tests.real_clients import libreoffice, needs

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]

played = st.tuples(st.sampled_from(["3", "4", "nap"]), st.integers(0, 5), st.booleans())
step = st.one_of(
    st.tuples(st.just("deal"), played),
    st.tuples(st.just("deal"), played),
    st.tuples(st.just("deal"), played),
    st.tuples(st.just("pass")),
    st.tuples(st.just("undo")),
    st.tuples(st.just("void"), st.integers(0, 20)),
    st.tuples(st.just("amend"), st.integers(0, 20), played),
    st.tuples(st.just("join")),
    st.tuples(st.just("leave"), st.integers(0, 5)),
)
evening = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(["classic", "russian"]),
        "seats": st.permutations(NAMES[:4]),  # not always as the alphabet has them
        "first": st.lists(step, min_size=1, max_size=14),
        "pot": st.sampled_from(["split", "carry", 0, 1]),
        "second": st.lists(step, max_size=8),
        "close_second": st.booleans(),
    }
)


def take(s: SessionAPI, kind: str, *args: Any) -> None:
    board = s.scoreboard()
    seated = board.seating

    def options(bid: str, by: int, made: bool) -> DealOptions:
        return DealOptions(bid=bid, by=seated[by % len(seated)], made=made, failed=not made)

    live = [d.number for d in s.history(with_roster=False).deals if d.live]
    if kind == "deal":
        s.record(options(*args[0]))
    elif kind == "pass":
        s.pass_()
    elif kind == "undo":
        s.undo()
    elif kind == "void":
        s.void(live[args[0] % len(live)] if live else 1)
    elif kind == "amend":
        s.amend(live[args[0] % len(live)] if live else 1, options(*args[1]))
    elif kind == "join":
        s.join(next((n for n in NAMES if n not in board.chips), "Gus"))
    else:
        s.leave(seated[args[0] % len(seated)])


def play(db: Database, name: str, steps: list[tuple[Any, ...]]) -> None:
    for kind, *args in steps:
        try:
            with db.write() as tx:
                take(tx.session(name), kind, *args)
        except NapError:
            pass  # refused (a leave below the game's minimum, nothing to undo...): unchanged


def money(value: Any) -> Decimal:
    return Decimal(str(value))


def chart_points(path: Path) -> dict[str, str]:
    """Each chart series' name cell and the cell of its last point."""
    with zipfile.ZipFile(path) as archive:
        xml = archive.read("xl/charts/chart1.xml").decode()
    series = re.findall(
        r"<tx><strRef><f>'Balance'!\$(\w+)\$1</f>.*?<val><numRef><f>([^<]*)</f>", xml
    )
    return {
        f"{column}1": ref.split(":")[-1].replace("$", "").split("!")[-1] for column, ref in series
    }


def nap_settle(url: str, names: list[str]) -> Any:
    env = pytest.MonkeyPatch()
    env.setenv("NAPLEDGER_DB", url)
    try:
        return Nap().json("settle --json " + " ".join(f"--session {n}" for n in names))
    finally:
        env.undo()


# No shrinking: each example plays, exports and reads a whole evening, and shrinking a
# failure took over five minutes; the failing evening is printed as it was drawn.
@settings(
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(plan=evening)
def test_every_front_end_shows_the_same_totals_pot_and_running_balances(plan, tmp_path_factory):
    folder = tmp_path_factory.mktemp("evening")
    url = str(folder / "nap.db")
    with Database(url) as db:
        with db.write() as tx:
            tx.new_session(
                "fri", load_preset(plan["variant"]), plan["seats"], Decimal("0.05"), "GBP"
            )
        play(db, "fri", plan["first"])
        pot_to = plan["pot"]
        with db.write() as tx:
            s = tx.session("fri")
            seated = s.scoreboard().seating
            s.close(pot_to if isinstance(pot_to, str) else seated[pot_to % len(seated)])
        names = ["fri"]
        if pot_to == "carry":
            with db.write() as tx:
                tx.new_session(
                    "sat",
                    load_preset(plan["variant"]),
                    plan["seats"][::-1],
                    Decimal("0.05"),
                    "GBP",
                    carry_from="fri",
                )
            play(db, "sat", plan["second"])
            if plan["close_second"]:
                with db.write() as tx:
                    tx.session("sat").close("split")
            names.append("sat")

    nap = Nap()
    env = pytest.MonkeyPatch()
    env.setenv("NAPLEDGER_DB", url)
    try:
        tables = {n: nap.json(f"table --json --session {n}") for n in names}
        hands = {n: nap.json(f"hands --json --session {n}") for n in names}
        settles = {n: nap.json(f"settle --json --session {n}") for n in names}
        env.setenv("COLUMNS", "400")  # settle: a party a line
        settled = nap("settle " + " ".join(f"--session {n}" for n in names)).stdout
        workbook = folder / "evening.xlsx"
        nap(f"export {' '.join(names)} -o {workbook}")
        with TestClient(create_app(None, "secret"), raise_server_exceptions=False) as page:
            for n in names:
                sid = tables[n]["session"]["id"]
                document = page.get(f"/s/{sid}/json").json()
                assert document["table"] == tables[n]  # the page's board is table --json's
                assert document["hands"] == hands[n]
                assert document["settle"] == settles[n]
    finally:
        env.undo()

    chips = {n: {p["name"]: p["chips"] for p in tables[n]["players"]} for n in names}
    cash = {n: {p["name"]: money(p["money"]) for p in tables[n]["players"]} for n in names}
    wb = openpyxl.load_workbook(workbook)
    summary = wb["Summary"]
    for i, n in enumerate(names, start=1):  # each session's block on Summary
        rows = {r["Player"].value: r for r in table_rows(summary, f"Session{i}")}
        # in the terminal's order: the board's, most chips first (a tie as they sat)
        players = [p for p in rows if p in chips[n]]
        assert players == by_chips(list(chips[n]), chips[n]), n
        for player, c in chips[n].items():
            assert rows[player]["Chips"].value == c, (n, player)
            assert money(rows[player]["Money"].value) == cash[n][player], (n, player)
    # The evening's totals are what its settlement pays: the boards' money, and an open
    # session's pot split as `settle` splits it ("if we stopped now").
    plan = nap_settle(url, names)
    owed: Counter[str] = Counter()
    for t in plan["transfers"]:
        owed[t["from"]] -= money(t["money"])
        owed[t["to"]] += money(t["money"])
    evening_money: Counter[str] = Counter()
    for n in names:
        evening_money.update(cash[n])
    if not tables[names[-1]]["pot"] or tables[names[-1]]["session"]["closed"]:
        assert {p: m for p, m in owed.items() if p != "pot" and m} == {
            p: m for p, m in evening_money.items() if m
        }
    totals = {
        r["Player"].value: money(r["Money"].value) for r in table_rows(summary, "EveningTotals")
    }
    assert {p: m for p, m in totals.items() if m} == {
        p: m for p, m in owed.items() if p != "pot" and m
    }
    # ... listed in the terminal's order (settle's), a tie as the players sat
    parties = [line.strip("│").split("│")[0].strip() for line in settled.splitlines()]
    assert [p for p in parties if p in evening_money] == [
        p for p, m in totals.items() if m and p in evening_money
    ]
    payments = (
        [
            (r["Pays"].value, r["To"].value, money(r["Amount"].value))
            for r in table_rows(summary, "EveningSettlement")
        ]
        if plan["transfers"]
        else []
    )
    assert payments == [(t["from"], t["to"], money(t["money"])) for t in plan["transfers"]]

    deals = table_rows(wb["Deals"], "DealsTable")
    balance = table_rows(wb["Balance"], "BalanceTable")
    for n in names:
        mine = [r for r in deals if r["Session"].value == n]
        for player, c in chips[n].items():  # the last running total on Deals
            last = [
                r[f"{player} total"].value for r in mine if r[f"{player} total"].value is not None
            ]
            assert (last[-1] if last else 0) == c, (n, player)
        theirs = [r for r in balance if r["Session"].value == n]
        for player, c in chips[n].items():  # Balance: the session's chips where they end
            drawn = [r[f"{player} chips"].value for r in theirs]
            assert ([v for v in drawn if v is not None] or [0])[-1] == c, (n, player)
        # and after every live deal, hands --json's running sum for those dealt in; a
        # player not seated is a gap in the line, not a zero
        running: Counter[str] = Counter()
        at_deal = {r["Deal"].value: r for r in theirs}
        for deal in hands[n]:
            if deal["status"] != "live":
                continue
            running.update(deal["changes"])
            row = at_deal[deal["number"]]
            for player in chips[n]:
                value = row[f"{player} chips"].value
                assert value == (running[player] if player in deal["seated"] else None), (
                    n,
                    deal["number"],
                    player,
                )

    sheet = wb["Balance"]
    points = chart_points(workbook)
    assert points  # one line a player, and the pot's
    for header, last in points.items():
        name = sheet[header].value
        assert int(re.sub(r"\D", "", last)) == sheet.max_row  # the line runs to the end
        if name in evening_money:  # a player's line ends at their boards' money
            column = re.sub(r"\d", "", last)
            drawn = [c.value for c in sheet[column][1:] if c.value is not None]  # gaps: unseated
            assert money(drawn[-1] if drawn else 0) == evening_money[name], name
        else:
            assert name == "Pot"
            final = tables[names[-1]]
            assert money(sheet[last].value) == Decimal("0.05") * final["pot"]


# --- One label, one sign, one order, one money: the read model decides them once ---------


def shown_sheet(workbook: Path, folder: Path, sheet: str) -> list[list[str]]:
    """A sheet as LibreOffice shows it: its CSV filter, every sheet to its own file, each
    cell as shown (the ninth option), in its number format."""
    every_sheet = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1"
    done = libreoffice(workbook, folder, every_sheet)
    path = folder / f"{workbook.stem}-{sheet}.csv"
    assert done.returncode == 0 and path.exists(), done.stderr
    with path.open(encoding="utf-8", newline="") as file:
        return list(csv.reader(file))


@needs("soffice")
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_amended_deal_a_gain_a_loss_and_the_pot_read_alike_in_all_four(nap, tmp_path, lang):
    """The terminal, --json, the page and the workbook write what the core decides: the
    amended deal's label, each change's sign, the board's order, a player's money."""
    nap(f"new fri --players Ann,Ben,Boris --chip 0.05 --currency GBP --rule pool=on --lang {lang}")
    nap("hand 3 --by Ann --made")
    nap("hand nap --by Ben --failed")
    nap("amend 1 3 --by Ann --failed")  # deal 1's second version: Ann loses, the pot gains
    with Database(os.environ["NAPLEDGER_DB"]) as db, db.read() as tx:
        s = tx.session("fri")
        board, history = s.scoreboard(), s.history()
    amended = next(d for d in history.deals if d.revision == 2)
    label = deal_label(amended.number, amended.revision)
    with speaking(lang):
        paid = [f"{account_name(a)} {signed(c)}" for a, c in history.changes(amended)]
        order = [line.player for line in board.standings]
        lines = {
            line.player: (signed(line.chips), board.shown_money(line.chips, signed=True))
            for line in board.standings
        }
    assert label == "1.2" and order == by_chips(board.players, board.chips)
    assert min(board.chips.values()) < 0 < max(board.chips.values())  # a gain and a loss
    assert history.changes(amended)[-1][0] == "pot"  # the pot last, having gained

    # The terminal: hands names the amended deal and its payments; table's order and signs.
    hands = nap(f"--lang {lang} hands").stdout
    row = next(r for r in hands.splitlines() if f" {label} " in r)
    assert all(p in row or p in hands for p in paid[:-1]), row
    table = nap(f"--lang {lang} table").stdout
    rows = [r for r in table.splitlines() if any(f" {p} " in r for p in order)]
    assert [next(p for p in order if f" {p} " in r) for r in rows] == order
    for r, player in zip(rows, order, strict=True):
        assert all(f" {text} " in r for text in lines[player]), r

    # --json: the same label, and the same money (machine-written).
    document = nap.json("hands --json")
    assert [d["label"] for d in document if d["revision"] == 2] == [label]

    # The page: the amended deal's label and payments, the board's order, signs and money.
    with TestClient(create_app(None, "secret")) as client:
        page = html.unescape(client.get("/s/1", headers={"accept-language": lang}).text)
    deal = re.search(rf'<li data-deal="{re.escape(label)}"[^>]*>(.*?)</li>', page, re.S)
    assert deal, page
    assert [
        re.sub(r"\s+", " ", p) for p in re.findall(r"<span class=\"\w*\">([^<]*)</span>", deal[1])
    ] == paid
    assert re.findall(r'<tr data-player="([^"]+)"', page) == order
    for player, (chips, money_shown) in lines.items():
        row_html = re.search(rf'<tr data-player="{player}".*?</tr>', page, re.S)
        assert row_html and chips in row_html[0] and money_shown in row_html[0], player

    # The workbook, as LibreOffice shows it: the label on Deals, each change's sign.
    workbook = tmp_path / "fri.xlsx"
    nap(f"export fri -o {workbook}")
    deals = shown_sheet(workbook, tmp_path, "Deals" if lang == "en" else "Сдачи")
    header = deals[0]
    found = next(r for r in deals if r[1] == label)
    for player, chips in history.changes(amended):
        if player != "pot":
            change = next(i for i, h in enumerate(header) if h.startswith(player))
            with speaking(lang):
                assert found[change] == signed(chips), (player, found)


def test_a_carried_pot_and_the_closes_read_alike_in_hands_and_on_deals(nap, tmp_path):
    """The pot coming in and going out is one row of the timeline, worded once
    (napledger.core.read.said), in the terminal's hands and the workbook's Deals sheet."""
    nap("new first --players A,B,C --variant russian")
    nap("pass")
    nap("close --pot carry")
    nap("new second --players A,B,C --variant russian --carry-from first")
    nap("hand 3 --by A --made")
    nap("close --pot split")
    workbook = tmp_path / "both.xlsx"
    nap(f"export first second -o {workbook}")
    rows = table_rows(openpyxl.load_workbook(workbook)["Deals"], "DealsTable")
    on_deals = [
        (r["Session"].value, r["Deal"].value, r["Outcome"].value)
        for r in rows
        if r["Deal"].value in (pot_row_label(OPEN), pot_row_label(CLOSE))
    ]
    assert on_deals == [
        ("first", "close", pot_at_close(1, "carry", "second")),
        ("second", "open", pot_carried_in(1, "first")),
        ("second", "close", pot_at_close(2, "split")),
    ]
    for session, label, said in on_deals:
        listed = " ".join(nap(f"hands --session {session}").stdout.replace("│", " ").split())
        assert f"{label} {said}" in listed, (session, listed)


def test_who_sits_out_is_the_boards_in_the_terminal_and_on_the_keepers_page(nap):
    """Six at a classic table: the dealer sits the deal out (dealer_sits_out_from = 6)."""
    from tests.web.conftest import board as page_board

    nap("new big --players A,B,C,D,E,F")
    nap("hand 3 --by B --made")
    with Database(os.environ["NAPLEDGER_DB"]) as db:
        with db.read() as tx:
            board = tx.session("big").scoreboard()
        page = page_board(db, board.session.id)
    assert board.sits_out == ("B",) == page.choices.sits_out
    assert "Next to deal: B, who sits out: no cards, no bid" in nap("table").stdout


def test_the_workbooks_totals_list_players_in_the_terminals_order(nap, tmp_path):
    """A tie between players who sat out of alphabetical order: `table`, `settle` and the
    workbook's totals (the session's and the evening's) all list them as they sat."""
    nap("new fri --players Ben,Ann,Cat --chip 0.05 --currency GBP")
    nap("hand 3 --by Cat --failed")  # Ben and Ann +3 each: a tie
    nap("new sat --players Cat,Ann,Ben --chip 0.05 --currency GBP")
    nap("hand 3 --by Cat --failed")

    def listed(text: str) -> list[str]:
        cells = [line.strip("│").split("│")[0].strip() for line in text.splitlines()]
        return [c for c in cells if c in ("Ann", "Ben", "Cat")]

    assert listed(nap("table --session fri").stdout) == ["Ben", "Ann", "Cat"]
    assert listed(nap("settle --session fri").stdout) == ["Ben", "Ann", "Cat"]
    assert listed(nap("settle --session fri --session sat").stdout) == ["Ben", "Ann", "Cat"]
    workbook = tmp_path / "evening.xlsx"
    nap(f"export fri sat -o {workbook}")
    summary = openpyxl.load_workbook(workbook)["Summary"]
    for block in ("Session1", "EveningTotals"):
        assert [r["Player"].value for r in table_rows(summary, block)] == ["Ben", "Ann", "Cat"]


def test_joins_and_leaves_stand_between_the_same_deals_in_hands_and_on_deals(nap, tmp_path):
    nap("new fri --players Ann,Ben,Cat")
    nap("hand 3 --by Ann --made")
    nap("join Dan")
    nap("hand 3 --by Ben --failed")
    nap("leave Ann")  # in force from the next deal: the last row of the timeline
    workbook = tmp_path / "fri.xlsx"
    nap(f"export fri -o {workbook}")
    rows = table_rows(openpyxl.load_workbook(workbook)["Deals"], "DealsTable")
    on_deals = [r["Deal"].value or r["Outcome"].value for r in rows]
    with Database(os.environ["NAPLEDGER_DB"]) as db, db.read() as tx:
        history = tx.session("fri").history()
    timeline = [
        roster_said(e) if isinstance(e, RosterChange) else e.number for e in history.timeline
    ]
    assert on_deals == timeline == [1, "Dan sits down in seat 4", 2, "Ann leaves the table"]
    listed = [" ".join(r.replace("│", " ").split()) for r in nap("hands").stdout.splitlines()]
    assert [r for r in listed if r.endswith(("seat 4", "the table"))] == timeline[1::2]


# --- One timeline: the same rows, order, labels and words in all four -----------------

reopening = st.fixed_dictionaries(
    {
        # Each game with a pot that every deal feeds: there is always a pot to carry.
        "variant": st.sampled_from([("classic", ("pool=on",)), ("russian", ())]),
        "before": st.lists(step, min_size=1, max_size=6),
        "reopened_to": st.sampled_from(["split", "carry", 0]),
        # Few steps after the reopened close: it stays among the page's last rows.
        "after": st.lists(step, max_size=3),
        "second": st.lists(step, max_size=4),
    }
)


def hands_rows(nap: Nap, name: str) -> list[tuple[str, ...]]:
    """`hands` as its cells (#, dealer, bid, outcome), a row a line at a wide terminal."""
    rows = []
    for line in nap(f"hands --session {name}").stdout.splitlines():
        if not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.strip("│").split("│")]
        rows.append(tuple(cells[:4]))
    return rows


def workbook_rows(path: Path, name: str) -> list[tuple[Any, ...]]:
    """Deals as the timeline's rows: label (N.2 from Deal and Revision), Status, Dealer,
    the bid, and the words (Outcome, Peeps and buys, Note)."""
    rows = []
    for r in table_rows(openpyxl.load_workbook(path)["Deals"], "DealsTable"):
        if r["Session"].value != name:
            continue
        number, revision = r["Deal"].value, r["Revision"].value
        label = deal_label(number, revision) if revision else (number or "")
        bid = " ".join(filter(None, (r["Bidder"].value, r["Bid"].value)))
        words = (r["Outcome"].value, r["Peeps, buys"].value, r["Note"].value)
        rows.append((label, r["Status"].value, r["Dealer"].value or "", bid, words))
    return rows


def dealt(row: Any, bid: str) -> str:
    """What the page writes before a deal's words: who dealt, and the bid (if any)."""
    if not row.dealer:
        return ""
    return f"{row.dealer} · {bid} · " if bid else f"{row.dealer} · "


@settings(
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(plan=reopening)
def test_an_evening_with_a_reopened_close_and_a_carried_pot_reads_alike_everywhere(
    plan, tmp_path_factory
):
    """`hands`, the page, `/s/N/json` and the workbook's Deals show the read model's rows
    (napledger.core.read.timeline): the same rows, in the same order, with the same labels
    and words, a close taken back by `reopen` and a carried pot included."""
    folder = tmp_path_factory.mktemp("reopened")
    url = str(folder / "nap.db")
    game, rule = plan["variant"]
    rules = with_overrides(load_preset(game), rule)
    with Database(url) as db:
        with db.write() as tx:
            tx.new_session("fri", rules, NAMES[:4], Decimal("0.05"), "GBP")
        play(db, "fri", plan["before"])
        with db.write() as tx:
            s = tx.session("fri")
            to = plan["reopened_to"]
            s.close(to if isinstance(to, str) else s.scoreboard().seating[0])
        with db.write() as tx:
            tx.session("fri").reopen()
        play(db, "fri", [*plan["after"], ("pass",)])  # the pass feeds the pot carried on
        with db.write() as tx:
            tx.session("fri").close("carry")
        with db.write() as tx:
            tx.new_session("sat", rules, NAMES[:4], Decimal("0.05"), "GBP", carry_from="fri")
        play(db, "sat", plan["second"])
        with db.read() as tx:
            core = {n: list(tx.session(n).history().rows()) for n in ("fri", "sat")}
            ids = {n: tx.session(n).info.id for n in ("fri", "sat")}
            boards = {n: tx.session(n).scoreboard() for n in ("fri", "sat")}

    for name, rows in core.items():  # the rows' money: zero-sum, ending at the board
        counted = [r for r in rows if r.counts]
        assert all(sum(c for _, c in r.changes) == 0 for r in counted), name
        last = dict(counted[-1].totals or {}) if counted else {}
        assert {p: c for p, c in last.items() if p != "pot" and c} == {
            p: c for p, c in boards[name].chips.items() if c
        }, name

    assert any(r.status == "reopened" for r in core["fri"])  # what this test is about
    assert core["sat"][0].kind == "open" and core["fri"][-1].said.endswith("carried to sat")
    env = pytest.MonkeyPatch()
    env.setenv("NAPLEDGER_DB", url)
    env.setenv("COLUMNS", "400")  # hands: a row a line
    try:
        nap = Nap()
        workbook = folder / "evening.xlsx"
        nap(f"export fri sat -o {workbook}")
        with TestClient(create_app(None, "secret")) as client:
            pages = {n: html.unescape(client.get(f"/s/{ids[n]}").text) for n in ids}
            documents = {n: client.get(f"/s/{ids[n]}/json").json() for n in ids}
        for name, rows in core.items():
            bids = [" ".join(filter(None, (r.bidder, r.bid))) for r in rows]
            # hands: #, dealer, bid, and the row's words in one cell
            expected = [
                (r.label, r.dealer or "", b or ("-" if r.kind == "deal" else ""), r.text)
                for r, b in zip(rows, bids, strict=True)
            ]
            assert hands_rows(nap, name) == expected, name
            # /s/N/json: every row, in order, in the same words (English, as the rows)
            fields = (
                "kind",
                "label",
                "status",
                "said",
                "dealer",
                "bidder",
                "bid",
                "extras",
                "note",
            )
            document = [tuple(d[f] for f in fields) for d in documents[name]["timeline"]]
            assert document == [tuple(getattr(r, f) for f in fields) for r in rows], name
            # the workbook's Deals: label, state, dealer, bid and words, row for row
            assert workbook_rows(workbook, name) == [
                (
                    r.label,
                    r.status_said if r.kind == "deal" or not r.live else None,
                    r.dealer or "",
                    b,
                    (r.said, r.extras or None, r.note),
                )
                for r, b in zip(rows, bids, strict=True)
            ], name
            # the page: the timeline's last rows, the newest first, in the same words
            listed = re.findall(
                r'<li data-deal="([^"]*)" data-kind="(\w+)"[^>]*>(.*?)(?:<span class="paid">|</li>)',
                pages[name],
                re.S,
            )
            shown = [
                (label, kind, " ".join(re.sub(r"<[^>]+>", "", text).split()))
                for label, kind, text in listed
            ]
            newest = list(reversed(rows))[: len(shown)]
            assert len(shown) == min(8, len(rows)), name
            assert shown == [
                (r.label, r.kind, " ".join(f"{r.label} {dealt(r, b)}{r.text}".split()))
                for r, b in zip(newest, reversed(bids), strict=False)
            ], name
            # the rows this test is about are among those the page lists
            kinds = {(kind, r.status) for (_, kind, _), r in zip(shown, newest, strict=False)}
            assert ("close", "reopened") in kinds if name == "fri" else ("open", "live") in kinds
    finally:
        env.undo()
