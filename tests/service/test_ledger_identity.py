"""The ledger knows itself (#37): another ledger, or an older copy of this one, put in the
database's place under a running process is noticed, and nothing more is written."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from sqlalchemy import text

from napledger.core.errors import NapError
from napledger.core.options import DealOptions
from napledger.core.rules import load_preset
from napledger.service.api import Database

GONE = "no longer holds the ledger opened at the start"


def deal(db: Database) -> None:
    with db.write() as tx:
        tx.session("fri").record(DealOptions(bid="three", by="Ann", made=True))


@pytest.fixture
def running():
    with Database() as db:  # NAPLEDGER_DB: SQLite, or PostgreSQL in CI's second pass
        with db.write() as tx:
            tx.new_session("fri", load_preset("classic"), ["Ann", "Ben", "Cat"])
        deal(db)
        yield db


def test_an_older_copy_put_in_place_stops_every_read_and_write(running):
    with Database() as other, other.write() as tx:  # a restore, as another process makes it
        tx.book.db.execute(text("UPDATE meta SET value = '0' WHERE key = 'ledger_generation'"))
    for act in (lambda: deal(running), running.check_same_files):
        with pytest.raises(NapError, match=GONE):
            act()


def test_another_ledger_put_in_place_is_noticed_by_a_reader(running):
    with Database() as other, other.write() as tx:
        tx.book.db.execute(text("UPDATE meta SET value = 'another' WHERE key = 'ledger_id'"))
    with pytest.raises(NapError, match=GONE), running.read() as tx:
        tx.session("fri").scoreboard()
    with pytest.raises(NapError, match=GONE):
        deal(running)


def test_writes_from_another_process_move_the_generation_on_and_are_no_alarm(running):
    with Database() as other:
        deal(other)
        deal(other)
    deal(running)
    running.check_same_ledger()
    with running.read() as tx:
        assert tx.session("fri").scoreboard().hands == 4


@pytest.mark.sqlite_only
def test_a_backup_copied_over_the_file_is_noticed_by_the_running_process(running, db_path):
    backup = db_path.with_name("b.db")
    source, copy = sqlite3.connect(db_path), sqlite3.connect(backup)
    source.backup(copy)
    source.close()
    copy.close()
    deal(running)
    running.check_same_ledger()  # the ledger as it is now: remembered
    shutil.copyfile(backup, db_path)  # `cp b.db m.db`: the same file, older pages
    running._looked_at = 0.0  # as if half a second had passed since it last looked
    with pytest.raises(NapError, match=GONE):
        running.check_same_ledger()
    with pytest.raises(NapError, match=GONE):
        deal(running)


@pytest.mark.sqlite_only
def test_verify_says_when_a_write_ahead_log_is_not_its_files(nap, db_path):
    nap("new fri --players Ann,Ben,Cat")
    other = db_path.with_name("other.db")
    nap(f"--db {other} new sat --players Dan,Eve,Fay")
    holder = sqlite3.connect(db_path)  # a process with the ledger open, frames in its log
    holder.execute("PRAGMA wal_autocheckpoint = 0")
    holder.execute("INSERT INTO meta (key, value) VALUES ('held', 'open')")
    holder.commit()
    shutil.copyfile(other, db_path)  # another ledger copied over it meanwhile
    result = nap("verify", ok=False)
    holder.close()
    assert result.exit_code == 1
    said = " ".join(result.stdout.split())  # wrapped to the terminal
    assert f"the write-ahead log {db_path}-wal belongs to another ledger" in said
