"""What a live page asks at every change: has anything, or this session, changed, and how?"""

from __future__ import annotations

import os
import shutil
import threading
from decimal import Decimal

import pytest

from napledger.core.errors import NapError
from napledger.core.options import DealOptions
from napledger.core.rules import load_preset
from napledger.service.api import Database


@pytest.fixture
def database():
    with Database() as database:
        with database.write() as tx:
            for name in ("fri", "sat"):
                tx.new_session(name, load_preset("classic"), ["Ann", "Bob", "Cy"], Decimal(1))
        yield database


def mark(database: Database, session: str = "fri") -> tuple[object, ...]:
    with database.read() as tx:
        return tx.session(session).last_change()


def since(database: Database, after: int, session: str = "fri") -> list[tuple[int, str]]:
    with database.read() as tx:
        return tx.session(session).deals_since(after)


def test_every_kind_of_change_moves_the_fingerprint_and_reading_does_not(database):
    seen = [mark(database)]

    def act(do) -> None:
        with database.write() as tx:
            do(tx.session("fri"))
        seen.append(mark(database))
        assert seen[-1] != seen[-2], do

    act(lambda s: s.record(DealOptions(bid="3", by="ann", made=True)))
    act(lambda s: s.pass_())
    act(lambda s: s.amend(1, DealOptions(failed=True)))
    act(lambda s: s.undo())
    act(lambda s: s.join("Dee"))
    act(lambda s: s.leave("Bob"))
    act(lambda s: s.close())
    act(lambda s: s.reopen())
    act(lambda s: s.close())  # a second close is another moment
    assert mark(database) == seen[-1]  # asking changes nothing
    # Before the reopen, never back to an earlier state (a reopened session is, to a page,
    # the one before the close again).
    assert len(set(seen[:-2])) == len(seen[:-2])


def test_another_sessions_deals_do_not_move_this_one(database):
    before = mark(database, "fri")
    with database.write() as tx:
        tx.session("sat").record(DealOptions(bid="3", by="ann", made=True))
    assert mark(database, "fri") == before
    assert since(database, 0, "fri") == []


def test_deals_since_gives_each_new_revision_once_in_order(database):
    with database.write() as tx:
        s = tx.session("fri")
        s.record(DealOptions(bid="3", by="ann", made=True))
        s.record(DealOptions(bid="3", by="bob", made=True))
    first = since(database, 0)
    assert [label for _, label in first] == ["1", "2"]
    with database.write() as tx:
        tx.session("fri").amend(1, DealOptions(failed=True))
    newer = since(database, first[-1][0])
    assert [label for _, label in newer] == ["1.2"]
    assert since(database, newer[-1][0]) == []


def test_a_servers_threads_share_one_database(database):
    """A server answers each request in a pool thread, all on one Database's engines."""
    expected = mark(database)  # its connection now waits in the pool, made by this thread
    seen: list[object] = []

    def elsewhere() -> None:
        try:
            seen.append(mark(database))
            with database.write() as tx:
                tx.session("fri").pass_()
            seen.append("written")
        except Exception as error:  # a thread's failure must reach the test
            seen.append(error)

    worker = threading.Thread(target=elsewhere)
    worker.start()
    worker.join()
    assert seen == [expected, "written"]


def test_a_commit_from_another_connection_is_heard_without_reading_a_session(database):
    """SQLite's data version, or PostgreSQL's NOTIFY: whichever this run's database is."""
    heard = database.changes()
    try:
        # Another engine, as another process would have.
        with Database() as elsewhere, elsewhere.write() as tx:
            tx.session("fri").record(DealOptions(bid="3", by="ann", made=True))
        assert heard.wait(5)
    finally:
        heard.close()


@pytest.mark.sqlite_only
def test_sqlite_is_quiet_until_a_commit_and_hears_a_replaced_file_once(database, db_path):
    heard = database.changes()
    try:
        assert not heard.wait(0)  # nothing committed since it started listening
        with database.read() as tx:
            tx.session("fri").scoreboard()
        assert not heard.wait(0)  # reading is not a change
        with database.write() as tx:
            tx.session("fri").pass_()  # the server's own writer: another connection
        assert heard.wait(0)
        assert not heard.wait(0)
        copy = db_path.with_name("restored.db")
        shutil.copy(db_path, copy)
        os.replace(copy, db_path)
        assert heard.wait(0)  # the pages must look, and will be told why they end
        assert not heard.wait(0)
    finally:
        heard.close()


@pytest.mark.sqlite_only
def test_listening_to_a_database_not_made_yet_is_refused_and_makes_none(tmp_path):
    path = tmp_path / "none.db"
    with pytest.raises(NapError):
        Database(str(path)).changes()
    assert not path.exists()


def test_every_sessions_mark_at_once_moves_only_for_the_session_changed(database):
    def marks() -> dict[int, tuple[object, ...]]:
        with database.read() as tx:
            return tx.last_changes()

    before = marks()
    assert before == {1: mark(database, "fri"), 2: mark(database, "sat")}  # each its own
    with database.write() as tx:
        tx.session("sat").record(DealOptions(bid="3", by="ann", made=True))
    after = marks()
    assert after[1] == before[1] and after[2] != before[2]
    with database.write() as tx:
        tx.session("fri").close()
    closed = marks()
    assert closed[1] != after[1] and closed[2] == after[2]
    with database.write() as tx:
        tx.session("fri").reopen()
    reopened = marks()
    assert reopened[1] == mark(database, "fri") and reopened[1] != closed[1]  # open: its own
