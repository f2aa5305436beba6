"""The whole evening from a phone (issue #19's "Done when"): Chromium at 360×740, taps
everywhere but where a name is typed. A russian evening is started from the organiser's
link, ten deals are tapped in (a made and a failed napoleon among them, a refused deal
put right without tapping it all again), an earlier deal is corrected, the session closes
with the box carried, and the workbook the page gives is opened with LibreOffice. What
the page showed is what `hands --json`, `settle --json` and the workbook's Summary say.

NAPLEDGER_SCREENSHOTS=docs/screenshots saves each step as the README shows it.
"""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

from napledger.web.keys import organiser_key
from tests.real_clients import libreoffice, needs
from tests.web import test_browser as shared
from tests.web.conftest import SECRET, Pictures, record

pytestmark = [shared.pytestmark, needs("soffice")]

PLAYERS = ("Борис", "Гена", "Ира", "Оля")


def scoreboard(page) -> dict[str, tuple[int, str]]:
    rows = page.locator("#scoreboard tbody tr")
    return {
        rows.nth(i).locator("td").nth(0).inner_text(): (
            int(rows.nth(i).locator("td").nth(1).inner_text()),
            rows.nth(i).locator("td").nth(2).inner_text(),
        )
        for i in range(rows.count())
    }


def plan(page) -> list[str]:
    return page.locator("#plan li").all_inner_texts()


def summary(workbook: Path, folder: Path) -> list[list[str]]:
    """The workbook's Summary sheet as LibreOffice reads it (its own values, computed by
    LibreOffice), through its CSV filter: every sheet to its own file."""
    every_sheet = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
    done = libreoffice(workbook, folder, every_sheet)
    sheet = folder / f"{workbook.stem}-Summary.csv"
    assert done.returncode == 0 and sheet.exists(), done.stderr
    with sheet.open(encoding="utf-8", newline="") as file:
        return [row for row in csv.reader(file)]


def block(rows: list[list[str]], heading: str, width: int) -> list[tuple[str, ...]]:
    """The rows under a heading of the Summary, up to the first blank or check row."""
    start = next(i for i, row in enumerate(rows) if row and row[0].startswith(heading))
    found = []
    for row in rows[start + 2 :]:  # the heading, then the column names
        if not row or not row[0] or row[0].startswith("Check"):
            break
        found.append(tuple(row[:width]))
    return found


def money(amount: str) -> Decimal:
    return Decimal(amount.split()[0])


def test_a_whole_russian_evening_from_a_phone(phone, live_server, nap, tmp_path):
    page = phone
    steps = Pictures(page, "evening", tmp_path / "shots")
    # --- Start it from the organiser's link --------------------------------------------
    page.goto(f"{live_server.url}/?key={organiser_key(SECRET)}")
    with page.expect_navigation():  # loaded, its script too: choosing a game swaps settings
        page.get_by_role("link", name="Start a new session").click()
    page.get_by_label("Game").select_option("russian")  # the russian settings come
    page.wait_for_selector("#new[data-game=russian]", state="attached")
    page.get_by_label("Name").click()
    page.keyboard.type("пятница")
    page.get_by_label("Players, one a line, in seat order").click()
    page.keyboard.type("\n".join(PLAYERS))
    page.get_by_label("A chip is worth").click()
    page.keyboard.type("5")
    page.get_by_label("Currency").click()
    page.keyboard.type("RUB")
    steps.shot("1-new", at="form.new")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the session").click()
    assert page.locator(".said").first.inner_text().startswith("Session пятница (#1) started: ")
    assert page.locator(".link img").count() == 2  # a QR code for each link
    steps.shot("2-started")
    with page.expect_navigation():
        page.locator(".link", has_text="Scorekeeper").get_by_role("link").click()

    # --- Play it: ten deals by taps -----------------------------------------------------
    assert page.locator("#upcoming").inner_text() == "Deal 1 · Next to deal: Борис"
    steps.shot("3-keeper")
    said = record(page, ("Bid", "three"), ("Bidder", "Гена"), ("Result", "made"))
    assert said.startswith("Deal 1 recorded: ")
    said = record(page, ("Bid", "napoleon"), ("Bidder", "Ира"), ("Result", "made"))
    assert said.startswith("Deal 2 recorded: ")  # a made napoleon: the box too
    steps.shot("4-recorded")
    # Only the bidder buys, one card: one box, the bidder's.
    assert page.locator('#deal input[name="bidder_bought"]').count() == 1
    said = record(
        page,
        ("Bid", "four"),
        ("Bidder", "Оля"),
        ("Result", "failed"),
        ("Cards bought", "the bidder bought a card"),
    )
    assert said.startswith("Deal 3 recorded: ")
    # A refused deal keeps its taps: only the missing bidder is tapped, then it goes in.
    said = record(page, ("Bid", "two"), ("Result", "made"))
    assert nap.fails("hand two --made") == "Error: say who bid (--by)"
    assert said == "Error: say who bid"
    shared.refused(page, 400)
    assert page.url == live_server.keeper(1)  # a reload asks for the page, posts nothing
    steps.shot("5-refused")
    assert page.locator('#deal input[name="bid"][value="two"]').is_checked()
    said = record(page, ("Bidder", "Борис"))
    assert said.startswith("Deal 4 recorded: ")
    said = record(page, ("Bid", "napoleon"), ("Bidder", "Гена"), ("Result", "failed"))
    assert said.startswith("Deal 5 recorded: ")  # a failed napoleon: doubles the box
    shared.confirmed(page, "Pass (nobody bid)")
    assert page.locator(".said").inner_text().startswith("Deal 6 recorded")
    said = record(page, ("Bid", "three"), ("Bidder", "Оля"), ("or tricks taken", "4"))
    assert said.startswith("Deal 7 recorded: ")
    said = record(page, ("Bid", "five"), ("Bidder", "Борис"), ("Result", "failed"))
    assert said.startswith("Deal 8 recorded: ")
    said = record(page, ("Bid", "three"), ("Bidder", "Ира"), ("Revoke by", "Борис"))
    assert said.startswith("Deal 9 recorded: ")
    said = record(page, ("Bid", "four"), ("Bidder", "Оля"), ("Result", "made"))
    assert said.startswith("Deal 10 recorded: ")

    # --- Amend an earlier deal, picked from the list ------------------------------------
    with page.expect_navigation():
        page.locator('#fix button[value="3"]').click()
    third = next(d for d in nap.json("hands --json") if d["number"] == 3)
    assert page.locator("#upcoming").inner_text() == "Amending deal 3"
    assert page.locator("#amending").inner_text().startswith(f"Now: {third['dealer']} dealt")
    assert page.locator('#deal input[name="result"][value="failed"]').is_checked()
    assert page.locator('#deal input[name="bidder_bought"]').is_checked()
    steps.shot("6-amend")
    said = record(page, ("Result", "made"), button="Save deal 3")
    assert said == "Deal 3 amended (now 3.2)."
    shown_deals = page.locator("#deals li").evaluate_all("(li) => li.map(l => l.dataset.deal)")
    assert shown_deals == ["10", "9", "8", "7", "6", "5", "4", "3.2"]
    shown_paid = [
        dict(
            (who, int(chips))
            for who, chips in (
                span.rsplit(" ", 1) for span in li.locator(".paid span").all_inner_texts()
            )
        )
        for li in page.locator("#deals li").all()
    ]
    steps.shot("7-board", at="#board")

    # --- Close it with the box carried --------------------------------------------------
    before = scoreboard(page)
    box = int(page.locator("#pot").inner_text())
    assert box > 0
    page.locator(".end select[name=pot]").select_option("carry")
    with page.expect_navigation():
        page.get_by_role("button", name="Close…").click()
    question = page.locator(".question").inner_text()
    assert f"({box} chips)" in question and "carried" in question
    steps.shot("8-close")
    with page.expect_navigation():
        page.get_by_role("button", name="Close пятница").click()
    assert page.locator(".said").inner_text().startswith("Session пятница closed.")
    shown = scoreboard(page)
    assert shown == before  # carried: the box is nobody's share yet
    assert int(page.locator("#pot").inner_text()) == box
    shown_plan = plan(page)
    steps.shot("9-settled", at=".settle")

    # --- Take the workbook home ---------------------------------------------------------
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the workbook (.xlsx)").click()
    workbook = tmp_path / download.value.suggested_filename
    download.value.save_as(workbook)
    assert workbook.name.endswith("-пятница.xlsx")

    # --- Everything agrees with what the page showed ------------------------------------
    table = nap.json("table --json")
    assert table["session"]["closed"] is True and table["pot"] == box
    assert {
        p["name"]: (p["chips"], shared.signed(p["money"], "RUB")) for p in table["players"]
    } == shown
    live = [d for d in nap.json("hands --json") if d["status"] == "live"]
    assert [d["number"] for d in live] == list(range(1, 11))
    assert [d["revision"] for d in live][2] == 2  # deal 3, as amended
    # Each deal the page listed paid what `hands` says it paid, the box's share included.
    for paid, deal in zip(shown_paid, reversed(live), strict=False):
        changes = {who: chips for who, chips in deal["changes"].items() if chips}
        box_share = -sum(deal["changes"].values())
        assert paid == changes | ({"pot": box_share} if box_share else {}), deal["number"]
    napoleons = [d["outcome"] for d in live if d["bid"] == "napoleon"]
    assert napoleons == ["made", "failed"]
    assert live[2]["buys"] == {"Оля": 1} and live[3]["bidder"] == "Борис"
    transfers = nap.json("settle --json")["transfers"]
    assert [f"{t['from']} → {t['to']}: {t['money']} RUB" for t in transfers] == shown_plan
    rows = summary(workbook, tmp_path)
    totals = {
        name: (int(chips), money(cash)) for name, chips, cash in block(rows, "Evening totals", 3)
    }
    assert totals.pop("in the carried pot") == (box, box * 5)  # the box the page showed
    assert totals == {name: (chips, money(cash)) for name, (chips, cash) in shown.items()}
    settlement = block(rows, "Settlement", 3)
    assert [f"{a} → {b}: {Decimal(m):.2f} RUB" for a, b, m in settlement] == shown_plan
    assert page.problems == []
