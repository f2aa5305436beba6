"""Sessions started with settings their preset no longer has keep the rules they froze.

The fixture was written by napledger before it refused `--rule pool_fail_doubles=off` in
russian, peeps and purchases in seven-card and russian, and a dealer sitting out from 3
(see tests/fixtures/make_absent_settings.py). A session's frozen rules are its rules.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import copy_ledger

FIXTURE = Path(__file__).parent.parent / "fixtures" / "absent-settings.db"

# What the fixture's sessions stood at when napledger wrote them, chip for chip.
RECORDED = {
    "moscow": ({"A": 5, "B": -27, "C": 30, "D": -8}, 0),
    "seven": ({"A": 56, "B": -20, "C": -18, "D": -21}, 3),
    "small": ({"A": -7, "B": 23, "C": -16}, 0),
}


@pytest.fixture
def old_db(db_path, on_postgres):
    """The fixture's ledger, in the test's database: the file itself on SQLite; on
    PostgreSQL, its rows copied into the test's schema."""
    shutil.copy(FIXTURE, db_path)
    if on_postgres:
        copy_ledger(db_path, on_postgres)
    return db_path


def standing(nap, session):
    table = nap.json(f"table --json --session {session}")
    return {p["name"]: p["chips"] for p in table["players"]}, table["pot"]


def test_a_session_with_settings_its_preset_no_longer_has_verifies_clean(nap, old_db):
    assert nap("verify").stdout.strip() == "All 3 sessions, 7 deals check out."
    assert {s: standing(nap, s) for s in RECORDED} == RECORDED


def test_its_deals_are_scored_again_exactly_as_recorded(nap, old_db):
    # A correction to the first deal re-derives every deal after it from the frozen rules.
    for session in RECORDED:
        nap(f"amend 1 --note again --session {session}")
    assert {s: standing(nap, s) for s in RECORDED} == RECORDED
    assert "check out" in nap("verify").stdout


def test_a_failed_napoleon_under_the_old_pool_fail_doubles_off_still_leaves_the_box_alone(
    nap, old_db
):
    first = nap.json("hands --json --session moscow")[0]
    # Four pool antes, the dealer's ante and C's peep of 2: no doubling.
    assert first["pot_after"] == 7


def test_the_same_settings_are_refused_for_a_new_session(nap, old_db):
    line = nap.fails("new again --players A,B,C,D --variant russian --rule pool_fail_doubles=off")
    assert "russian has no rule pool_fail_doubles" in line
