"""No front end decides again what the read model decides once (docs/glossary.md: read
model): each of these was written in two to four places before #17, and each drifted.

The rules themselves are tested on the core (tests/core/test_reading.py); that the four front
ends draw them alike, in tests/test_front_ends_agree.py. This keeps new copies out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "napledger"
FRONT_ENDS = sorted(
    [
        *(ROOT / "cli").glob("*.py"),
        *(ROOT / "web").glob("*.py"),
        *(ROOT / "web" / "templates").glob("*.html"),
        *(ROOT / "export").glob("*.py"),
        *(ROOT / "service").glob("*.py"),
        *(ROOT / "store").glob("*.py"),
    ]
)

# What a copy of each decision looks like, and where the one decision is.
COPIES = {
    "players ordered by chips": (r"-\s*\w+\.chips\[", "core/read/said.by_chips"),
    "a deal's label put together": (
        r"\.\{revision\}|revision\s*>\s*1",
        "core/read/said.deal_label",
    ),
    "a step named by cutting a label": (r"label\.split\(", "core/read/said.step_number"),
    # (A workbook's number format writes its sign itself: `+£0.30`, as signed would.)
    "a sign written by format": (r":\+d\}|\+\{\w+\.chips\}", "core/numbers.signed"),
    "the pot's account named": (r'_\("pot"\) (?:if|\+)|==\s*"pot"', "core/ledger.account_name"),
    "money turned back into chips": (r"\bint\([^()]*/\s*[\w.]*value\b", "core/money.money_chips"),
    # (The Balance sheet's running money goes on from the sessions before: not a net.)
    "money added over sessions": (r"net\.get\(\w+, Decimal\(0\)\) \+", "core/money.summed_money"),
    "an amount written for people by hand": (r"written\(money_text\(", "core/money.shown_amount"),
}


@pytest.mark.parametrize("what", sorted(COPIES))
def test_no_front_end_decides_it_again(what: str) -> None:
    pattern, home = COPIES[what]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in FRONT_ENDS
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(pattern, line)
    ]
    assert found == [], f"{what}: use {home}"


def test_the_patterns_find_what_they_are_for() -> None:
    """Each pattern catches the copy it was written against (else the test above proves
    nothing)."""
    copies = {
        "players ordered by chips": "sorted(t.players, key=lambda p: (-t.chips[p], i))",
        "a deal's label put together": 'f"{number}.{revision}" if revision > 1 else ""',
        "a step named by cutting a label": 'label.split(".")[0]',
        "a sign written by format": 'f"({change:+d})", f"{x.payee} +{x.chips}"',
        "the pot's account named": '{{ _("pot") if who == "pot" else who }}',
        "money turned back into chips": "int(amount / chip_value) if chip_value else None",
        "money added over sessions": "net[party] = net.get(party, Decimal(0)) + money",
        "an amount written for people by hand": "written(money_text(p.amount, places))",
    }
    assert set(copies) == set(COPIES)
    for what, copy in copies.items():
        assert re.search(COPIES[what][0], copy), what
