"""`verify` passes an honest ledger and catches every kind of tampering with it: the
audit, through the session service. How the command prints its findings (and in the
table's language) is tests/cli/test_verify.py's."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.tampering import tamper

pytestmark = pytest.mark.sqlite_only  # the file itself is tampered with


@pytest.fixture
def evening(table):
    table.new("box", "Ann,Bob,Cy,Di", variant="russian")
    table.hand("three", "Ann", made=True)
    table.hand("4", "Bob", tricks=2)
    table.hand("napoleon", "Cy", failed=True)
    table.amend(2, tricks=4)
    table.hand("3", "Di", made=True, buys=(("Di", 1),))
    table.undo()
    table.pass_()
    table.close("Ann")
    table.new("open", "X,Y,Z")
    table.hand("3", "X", revoke="Y")
    return table


def test_an_honest_ledger_checks_out(evening):
    assert evening.problems() == []


DAMAGE = [
    ("UPDATE deals SET pot_after = 99 WHERE id = 1", "deal 1: stored pot after it is 99"),
    (
        "UPDATE deals SET record_json = replace(record_json, '\"made\": true', '\"made\": false') "
        "WHERE id = 1",
        "deal 1: Ann is stored as",
    ),
    ("UPDATE deals SET record_json = '{}' WHERE id = 1", "deal 1: its record cannot be scored"),
    ("DELETE FROM entries WHERE deal_id IS NULL", "session box: at the close, Ann is stored"),
    (
        "INSERT INTO entries (session_id, deal_id, account, chips) VALUES (2, NULL, 'X', 0)",
        "session open: it is open but has closing entries",
    ),
    (
        "UPDATE deals SET number = 9 WHERE session_id = 2",
        "session open: its deals are numbered [9], not 1 to 1",
    ),
    (
        # an old file, from before the database itself refused this
        (
            "DROP INDEX ux_deals_one_live",
            "UPDATE deals SET status = 'live' WHERE status = 'replaced'",
        ),
        "deal 2: 2 live revisions of one deal",
    ),
    (
        "INSERT INTO entries (session_id, deal_id, account, chips) "
        "SELECT 1, id, 'Ann', 0 FROM deals WHERE status = 'voided'",
        "deal 4: it is voided but still has entries",
    ),
    ("UPDATE sessions SET rules_json = '{}' WHERE id = 1", "its rules cannot be read"),
    ("DELETE FROM roster WHERE id = 1", "deal 1: its players are not whom the roster seated"),
    (
        "INSERT INTO roster (session_id, from_deal, kind, player, seat, recorded_at) "
        "VALUES (1, 1, 'leave', 'Zed', 0, '2026-01-01')",
        "session box: its roster cannot be replayed",
    ),
    (
        "UPDATE sessions SET seating_json = '[]' WHERE id = 2",
        "session open: the table does not sit as its roster says",
    ),
    (
        "UPDATE sessions SET opening_pot = 5 WHERE id = 2",
        "session open: it opens with 5 chips in the pot but carries no pot",
    ),
    (
        # The close's own record gives Bob the chips its entries gave Ann.
        "UPDATE closes SET shares_json = replace(shares_json, '\"Ann\"', '\"Bob\"')",
        "session box: in its close record, Ann is stored as +0 chips, its closing entries +",
    ),
    (
        "UPDATE closes SET pot = pot + 3",
        "session box: its close record has ",
    ),
]


@pytest.mark.parametrize(("sql", "expected"), DAMAGE)
def test_each_kind_of_damage_is_reported(evening, db_path, sql, expected):
    tamper(db_path, *([sql] if isinstance(sql, str) else sql))
    assert any(expected in problem for problem in evening.problems())


def test_a_damaged_file_fails_the_integrity_check(evening, db_path):
    tamper(db_path, "PRAGMA foreign_keys = OFF", "UPDATE entries SET deal_id = 999 WHERE id = 1")
    assert any("entries row 1 points to a missing deals row" in p for p in evening.problems())


def test_verify_changes_nothing(evening):
    def state():
        history = evening.read(lambda s: s.history(), "box")
        return [(d.id, d.status, dict(d.changes)) for d in history.deals], evening.chips()

    before = state()
    evening.problems()
    assert state() == before


def test_the_database_refuses_two_live_revisions_of_one_deal(evening, db_path):
    with pytest.raises(sqlite3.IntegrityError), sqlite3.connect(db_path) as db:
        db.execute("UPDATE deals SET status = 'live' WHERE status = 'replaced'")


def test_a_carried_pot_that_grew_on_the_way_is_caught(table, db_path):
    table.new("first", "A,B,C", variant="russian")
    table.pass_()
    table.close("carry")
    table.new("second", "A,B,C", variant="russian", carry_from="first")
    tamper(db_path, "UPDATE sessions SET opening_pot = 7 WHERE id = 2")
    assert any("it opens with 7 chips, but 'first' carried 1" in p for p in table.problems())


def test_a_close_record_that_disagrees_with_the_entries_is_caught(evening, db_path):
    (shares,) = sqlite3.connect(db_path).execute("SELECT shares_json FROM closes").fetchone()
    assert json.loads(shares) == {"Ann": 7, "pot": -7}  # Ann took the box
    tamper(db_path, 'UPDATE closes SET pot = 5, shares_json = \'{"Ann": 5, "pot": -5}\'')
    assert {p.split(": ", 1)[1] for p in evening.problems()} == {
        "its close record has 5 chips in the pot, re-derived 7",
        "in its close record, Ann is stored as +5 chips, its closing entries +7",
        "in its close record, pot is stored as -5 chips, its closing entries -7",
    }


def test_a_closed_session_that_does_not_say_where_its_pot_went_was_split(table, db_path):
    # Migration 0004 recorded such a close as a split: verify reads the NULL the same way.
    table.new("s", "A,B,C", variant="russian")
    table.pass_()
    table.pass_()
    table.close()
    tamper(db_path, "UPDATE sessions SET pot_to = NULL")
    assert table.problems() == []
    tamper(db_path, "UPDATE closes SET pot_to = 'carry'")
    assert any("its close record does not match" in p for p in table.problems())
