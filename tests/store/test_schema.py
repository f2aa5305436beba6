"""Schema migrations: a 0.1 ledger upgrades with every deal and balance kept, after a backup."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect
from sqlmodel import SQLModel

from napledger.store import models  # noqa: F401  (registers the tables)
from napledger.store.schema import MIGRATIONS, upgrade

# Upgrading SQLite files of old layouts, with their backups beside them: SQLite's own.
pytestmark = pytest.mark.sqlite_only

FIXTURE = Path(__file__).parent.parent / "fixtures" / "schema-0001.db"
SESSIONS = ("friday", "moscow", "moscow-2", "pool")


def migrations(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT name FROM schema_migrations ORDER BY name")]


@pytest.fixture
def old_db(db_path):
    shutil.copy(FIXTURE, db_path)
    return db_path


def snapshot(nap):
    return {
        s: (nap.json(f"table --json --session {s}"), nap.json(f"hands --json --session {s}"))
        for s in SESSIONS
    }


def test_the_fixture_is_a_first_schema_ledger():
    assert migrations(FIXTURE) == ["0001_initial"]


def test_opening_an_old_ledger_upgrades_it_after_a_backup(nap, old_db, tmp_path, monkeypatch):
    # What 0.1 showed, read through the code with only the first migration (and the
    # balances, which this code reads the totals from).
    pristine = tmp_path / "pristine.db"
    shutil.copy(FIXTURE, pristine)
    # (and the sessions' own language, which this code reads with every session; and the
    # roster and the closes, whose counts `table --json` gives for --expect).
    kept = (
        "0003_roster",
        "0004_closes",
        "0007_balances",
        "0008_session_language",
        "0011_import_source",  # ... and where a session came from (`import`)
    )
    later = [m for m in MIGRATIONS if m[0] in kept]
    monkeypatch.setattr("napledger.store.schema.MIGRATIONS", [MIGRATIONS[0], *later])
    monkeypatch.setenv("NAPLEDGER_DB", str(pristine))
    before = snapshot(nap)
    assert migrations(pristine) == ["0001_initial", *kept]
    monkeypatch.undo()
    monkeypatch.setenv("NAPLEDGER_DB", str(old_db))
    monkeypatch.setenv("NO_COLOR", "1")

    result = nap("sessions")
    notice = result.stderr.strip().splitlines()
    assert len(notice) == 1
    applied = ", ".join(name for name, _ in MIGRATIONS[1:])
    assert f"upgraded the database schema ({applied})" in notice[0]
    backups = list(old_db.parent.glob("nap.db.bak-*"))
    assert len(backups) == 1 and str(backups[0]) in notice[0]
    assert migrations(backups[0]) == ["0001_initial"]
    assert migrations(old_db) == [name for name, _ in MIGRATIONS]

    assert snapshot(nap) == before
    assert nap("verify").stdout.strip() == "All 4 sessions, 10 deals check out."
    assert nap("sessions").stderr == ""  # upgraded once, backed up once
    assert len(list(old_db.parent.glob("nap.db.bak-*"))) == 1


def test_a_reading_command_upgrades_too(nap, old_db):
    result = nap("table --json --session friday")
    assert "upgraded the database schema" in result.stderr
    assert migrations(old_db)[-1] == MIGRATIONS[-1][0]


def test_the_upgraded_ledger_keeps_working(nap, old_db):
    nap("use moscow-2")
    nap("hand 3 --by B --made")
    nap("amend 2 --failed")
    nap("verify")


def test_a_new_ledger_is_not_backed_up(nap, db_path):
    result = nap("new s --players A,B,C")
    assert "upgraded" not in result.stderr
    assert not list(db_path.parent.glob("*.bak-*"))
    assert migrations(db_path) == [name for name, _ in MIGRATIONS]


def test_a_ledger_from_a_newer_napledger_is_refused_untouched(nap, db_path):
    nap("new s --players A,B,C")
    nap("hand 3 --by A --made")
    with sqlite3.connect(db_path) as db:
        db.execute("INSERT INTO schema_migrations (name) VALUES ('0099_from_the_future')")
    db.close()
    before = db_path.read_bytes()
    for line in ("table", "hand 3 --by B --made", "verify"):
        error = nap.fails(line)
        assert "was written by a newer napledger (schema 0099_from_the_future)" in error
    assert db_path.read_bytes() == before
    assert not list(db_path.parent.glob("*.bak-*"))


def test_a_failed_backup_leaves_the_ledger_as_it_was(nap, old_db, monkeypatch):
    def refuse(*_args):
        raise sqlite3.OperationalError("disk full")

    monkeypatch.setattr("napledger.store.schema.sqlite3.connect", refuse)
    error = nap.fails("table --session friday")
    assert "cannot copy" in error and "nothing was changed" in error
    monkeypatch.undo()
    assert migrations(old_db) == ["0001_initial"]


def test_the_migrations_build_what_the_models_describe(tmp_path):
    migrated = create_engine(f"sqlite:///{tmp_path / 'migrated.db'}")
    with migrated.begin() as connection:
        upgrade(connection)
    modelled = create_engine(f"sqlite:///{tmp_path / 'modelled.db'}")
    SQLModel.metadata.create_all(modelled)

    def shape(engine):
        found = inspect(engine)
        tables = sorted(set(found.get_table_names()) - {"schema_migrations"})
        return {
            t: (
                [(c["name"], str(c["type"]), c["nullable"]) for c in found.get_columns(t)],
                sorted((i["name"], tuple(i["column_names"]), i["unique"]) for i in found.get_indexes(t)),
                sorted(tuple(u["column_names"]) for u in found.get_unique_constraints(t)),
                sorted((tuple(f["constrained_columns"]), f["referred_table"]) for f in found.get_foreign_keys(t)),
            )
            for t in tables
        }  # fmt: skip

    assert shape(migrated) == shape(modelled)


def test_closes_made_before_0004_become_records_that_reopen(nap, old_db):
    nap("sessions")
    with sqlite3.connect(old_db) as db:
        closes = db.execute("SELECT s.name, c.pot_to, c.pot, c.shares_json, c.status, "
                            "c.closed_at = s.closed_at FROM closes c JOIN sessions s "
                            "ON s.id = c.session_id ORDER BY s.name").fetchall()  # fmt: skip
    assert closes == [
        ("moscow", "carry", 4, "{}", "live", 1),
        ("pool", "split", 4, '{"P": 1, "Q": 1, "R": 1, "S": 1, "pot": -4}', "live", 1),
    ]
    before = nap.chips("pool")
    nap("reopen --session pool")
    assert nap.chips("pool") == {p: chips - 1 for p, chips in before.items()}
    assert "cannot be reopened" in nap.fails("reopen --session moscow")  # moscow-2 took it
    assert nap("verify").exit_code == 0


def test_currencies_stored_in_lower_case_before_0005_become_codes(nap, old_db):
    with sqlite3.connect(old_db) as db:  # as an older napledger stored what was typed
        db.execute("UPDATE sessions SET currency = lower(currency)")
    db.close()
    before = nap.json("table --json --session friday")
    assert before["session"]["currency"] == "GBP"  # the upgrade ran first
    with sqlite3.connect(old_db) as db:
        currencies = dict(db.execute("SELECT name, currency FROM sessions").fetchall())
    db.close()
    assert currencies == {"friday": "GBP", "moscow": "RUB", "moscow-2": "", "pool": ""}
    assert migrations(next(old_db.parent.glob("nap.db.bak-*"))) == ["0001_initial"]
    assert nap("verify").stdout.strip() == "All 4 sessions, 10 deals check out."
    nap("new saturday --players Ann,Bob,Zoë --chip 0.05 --currency gbp")
    assert nap.json("settle -s friday -s saturday --json")["transfers"]


def test_an_upgraded_ledger_reads_totals_from_the_covering_index(nap, old_db):
    nap("sessions")
    with sqlite3.connect(old_db) as db:
        indexes = {r[1] for r in db.execute("PRAGMA index_list('entries')")}
        plan = " ".join(
            str(r[3])
            for r in db.execute(
                "EXPLAIN QUERY PLAN SELECT account, sum(chips) FROM entries "
                "WHERE session_id = 1 GROUP BY account"
            )
        )
    assert "ix_entries_session_account_chips" in indexes
    assert "ix_entries_session_account" not in indexes
    assert "COVERING INDEX ix_entries_session_account_chips" in plan


def test_an_upgraded_ledger_reads_each_players_swings_from_the_deals_entries(nap, old_db):
    nap("sessions")
    with sqlite3.connect(old_db) as db:
        plan = " ".join(
            str(r[3])
            for r in db.execute(
                "EXPLAIN QUERY PLAN SELECT account, max(chips), min(chips) FROM entries "
                "WHERE session_id IN (1, 2) AND deal_id IS NOT NULL GROUP BY session_id, account"
            )
        )
        (partial,) = db.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'ix_entries_deal_swings'"
        ).fetchone()
    assert "WHERE deal_id IS NOT NULL" in partial
    assert "COVERING INDEX ix_entries_deal_swings" in plan
