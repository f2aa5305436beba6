"""The workbook as a person sees it: opened and printed by LibreOffice, read back from the PDF.

openpyxl reading back our own file proves little about what a spreadsheet program
draws; these tests print a real evening to PDF with LibreOffice headless and read
the pages with poppler (pdftotext, pdfinfo). They skip, with the reason, where
those programs are missing; CI installs them (.ci/run).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.real_clients import libreoffice, needs

TOOLS = ("soffice", "pdftotext", "pdfinfo")
pytestmark = needs(*TOOLS)

CAT = '=HYPERLINK("Cat")'  # a name any spreadsheet would take for a formula
MAX_PAGES = 6


def play_evening(nap: Any) -> None:
    """Two sessions of about 20 deals: a correction, an undo, a carried pot, a late arrival
    and a split pot at the close: 40 live deals in all."""
    nap(f"new early --players 'Ann,Ben,{CAT},Dan' --chip 0.05 --currency GBP --rule pool=on")
    first = ["Ann", "Ben", CAT, "Dan"]
    for i in range(1, 21):
        bidder = first[i % 4]
        nap(_deal(i, bidder))
    nap("amend 4 --failed")
    nap("pass")  # the antes stay in the pot, carried to the late session
    nap("close --pot carry")
    nap(
        "new late --players Ann,Ben,Dan --carry-from early --chip 0.05 --currency GBP --rule pool=on"
    )
    for i in range(1, 21):
        if i == 12:
            nap("join Eve")
        seated = ["Ann", "Ben", "Dan", "Eve"] if i >= 12 else ["Ann", "Ben", "Dan"]
        nap(_deal(i, seated[i % len(seated)]))
    nap("undo")
    nap("close --pot split")


def _deal(i: int, bidder: str) -> str:
    by = f"--by '{bidder}'"
    return [
        f"hand nap {by} --tricks 5",
        f"hand 3 {by} --made",
        f"hand 4 {by} --failed",
        "pass",
        f"hand misere {by} --made",
    ][i % 5]


def print_to_pdf(workbook: Path, out: Path) -> Path:
    done = libreoffice(workbook, out, "pdf")
    pdf = out / f"{workbook.stem}.pdf"
    assert done.returncode == 0 and pdf.exists(), done.stderr
    # A file LibreOffice has to repair, or cannot read, is reported on stderr.
    assert not re.search(r"(?i)error|repair|corrupt", done.stderr), done.stderr
    return pdf


def pages(pdf: Path) -> list[str]:
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return text.split("\f")[:-1]  # each page ends with a form feed


def page_count(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    found = re.search(r"^Pages:\s+(\d+)", info.stdout, re.MULTILINE)
    assert found, info.stdout
    return int(found.group(1))


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One evening, exported and printed once for all the checks below."""
    from tests.conftest import Nap

    folder = tmp_path_factory.mktemp("printed")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NAPLEDGER_DB", str(folder / "nap.db"))
        mp.setenv("NO_COLOR", "1")
        mp.setenv("COLUMNS", "200")
        mp.delenv("NAPLEDGER_SESSION", raising=False)
        nap = Nap()
        play_evening(nap)
        workbook = folder / "evening.xlsx"
        nap(f"export early late -o {workbook}")
        plan = nap.json("settle --session early --session late --json")["transfers"]
    pdf = print_to_pdf(workbook, folder)
    return {"pdf": pdf, "pages": pages(pdf), "plan": plan}


def test_the_evening_prints_on_few_pages(printed: dict[str, Any]) -> None:
    assert page_count(printed["pdf"]) <= MAX_PAGES
    assert len(printed["pages"]) == page_count(printed["pdf"])


def test_every_page_is_a4(printed: dict[str, Any]) -> None:
    info = subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "99", str(printed["pdf"])],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    sizes = re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)", info)
    assert sizes
    for width, height in sizes:  # 595 x 842 points, either way round
        assert sorted((round(float(width)), round(float(height)))) == [595, 842], sizes


def test_page_one_has_the_evening_totals_and_its_one_settlement(printed: dict[str, Any]) -> None:
    first = printed["pages"][0]
    assert "Nap evening: early, late" in first
    assert "Evening totals" in first
    assert f"Settlement: {len(printed['plan'])} payment" in first
    for payment in printed["plan"]:
        line = re.compile(
            rf"{re.escape(payment['from'])}\s+{re.escape(payment['to'])}\s+£{re.escape(payment['money'])}"
        )
        assert line.search(first), payment
    for name in ("Ann", "Ben", CAT, "Dan", "Eve"):
        assert name in first


def test_every_name_is_in_the_evening_chart_legend_as_typed(printed: dict[str, Any]) -> None:
    (chart,) = [p for p in printed["pages"] if "Running money over the evening" in p]
    for name in ("Ann", "Ben", CAT, "Dan", "Eve", "Pot"):
        # The legend is at the right: each name ends its line (beside a y-axis label).
        assert re.search(rf"(^|\s){re.escape(name)}\s*$", chart, re.MULTILINE), name
    assert "Column" not in chart  # what a name read as a formula used to show


def test_each_session_block_is_on_one_page_and_checks_to_zero(printed: dict[str, Any]) -> None:
    for name in ("early", "late"):
        # On Summary (Deals' pages of players' columns show a join's row as the name alone).
        pages = sheet_pages(printed, "Summary")
        holding = [p for p in pages if re.search(rf"^\s*{name}\s*$", p, re.MULTILINE)]
        (page,) = holding  # heading, rows, check and pot line together
        block = page[page.index(f"\n{name}") :]
        assert re.search(r"Check: sums to zero\s+0\s+£0\.00", block), block
        assert "Pot (chips):" in block
    summary = "\n".join(sheet_pages(printed, "Summary"))
    assert "4 carried to late" in summary and "4 carried in from early" in summary
    assert re.search(r"from early's pot\s+-4\s+-£0\.20", summary)


def test_deals_end_each_session_with_its_pot_and_totals_the_summary(
    printed: dict[str, Any],
) -> None:
    text = "\n".join(sheet_pages(printed, "Deals"))
    assert re.search(r"^\s*early\s+close\s+pot of 4 carried to late", text, re.MULTILINE)
    assert re.search(r"^\s*late\s+open\s+pot of 4 carried in from early", text, re.MULTILINE)
    assert re.search(r"^\s*late\s+close\s+pot of \d+ split", text, re.MULTILINE)


def test_every_page_says_whose_evening_it_is_and_which_page(printed: dict[str, Any]) -> None:
    total = len(printed["pages"])
    for number, page in enumerate(printed["pages"], 1):
        assert "Nap evening: early, late" in page
        assert f"Page {number} of {total}" in page


def sheet_pages(printed: dict[str, Any], sheet: str) -> list[str]:
    """The printed pages of one sheet (its name is at the top right of each)."""
    return [p for p in printed["pages"] if re.search(rf"^.*\S\s+{sheet}\s*$", p, re.MULTILINE)]


def test_deals_name_each_rows_session_and_no_header_breaks_mid_word(
    printed: dict[str, Any],
) -> None:
    deals = sheet_pages(printed, "Deals")
    assert deals
    first = deals[0]
    # Each row starts with its session's name, not an id the reader never sees elsewhere.
    assert re.search(r"^\s*early\s+1\s+live", first, re.MULTILINE), first
    assert not re.search(r"^\s*\d+\s+\d+\s+live", first, re.MULTILINE)
    text = "\n".join(deals)
    for word in ("Dealer", "Bidder", "Outcome", "Peeps, buys", "Status", "Note"):
        assert re.search(rf"\b{word}\b", text), word  # whole, not "Deale" over "r"
    # Side by side, headers and cells keep a space between them (text set in after a
    # right-aligned column; "replaced" used to touch the dealer's name).
    assert re.search(r"Deal {2,}Status", first), first
    assert not re.search(r"Pot Note|replaced \S", text)
    # Every page of Deals starts with the session and deal columns.
    for page in deals:
        assert re.search(r"^\s*Session\s+Deal\b", page, re.MULTILINE), page


def test_the_rules_stake_headers_do_not_run_into_each_other(printed: dict[str, Any]) -> None:
    (rules,) = sheet_pages(printed, "Rules")
    assert re.search(r"Made: each {2,}Failed: pays", rules), rules
    assert not re.search(r"each Failed|pays Failed|opponent {0,1}opponent", rules)
