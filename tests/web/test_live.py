"""Live updates through a real server: every change, whoever made it, reaches open pages."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator

import httpx2
import pytest

from napledger.core.options import DealOptions
from napledger.core.read.page import CHART_STEPS
from napledger.core.rules import load_preset
from napledger.service.api import Database
from napledger.service.kept import KeptHistory
from napledger.service.watch import Changes
from napledger.web import live
from napledger.web.chart import running_chart
from tests.web.conftest import board as page_board


def events(response: httpx2.Response) -> Iterator[dict]:
    """The data of each server-sent event, as the browser's EventSource would see it."""
    data: list[str] = []
    kind = None
    for line in response.iter_lines():
        if line.startswith("data:"):
            data.append(line[5:].strip())
        elif line.startswith("event:"):
            kind = line[6:].strip()
        elif not line and data:
            yield json.loads("\n".join(data)) | ({"event": kind} if kind else {})
            data, kind = [], None


@pytest.fixture
def evening(nap):
    nap("new fri --players Ann,Ben,Cat,Dan")
    nap("hand nap --by Ann --made")
    return 1


def test_a_deal_from_a_separate_hand_process_is_pushed_as_it_is_heard(
    live_server, evening, no_polling
):
    # With nothing polling, the next event can only come from hearing the write (SQLite's
    # data version, PostgreSQL's NOTIFY); the stream's timeout fails the read otherwise.
    page = httpx2.get(f"{live_server.url}/s/1").text
    since = page.split('data-since="')[1].split('"')[0]
    with httpx2.stream("GET", f"{live_server.url}/s/1/events?since={since}", timeout=10) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        feed = events(stream)
        first = next(feed)
        assert first["deals"] == [] and 'data-deal="1"' in first["html"]
        subprocess.run(
            [sys.executable, "-m", "napledger", "hand", "misere", "--by", "Ben", "--made"],
            check=True,
            capture_output=True,
        )
        pushed = next(feed)
        assert pushed["deals"] == ["2"]
        assert "Ben misère · made" in pushed["html"]


def test_undo_and_amend_by_other_processes_are_pushed_too(live_server, nap, evening):
    with httpx2.stream("GET", f"{live_server.url}/s/1/events", timeout=10) as stream:
        feed = events(stream)
        next(feed)
        nap("amend 1 --failed")
        amended = next(feed)
        assert amended["deals"] == ["1.2"] and "nap · failed" in amended["html"]
        nap("undo")
        undone = next(feed)
        # The undone deal stays on the board greyed, as hands lists it: voided.
        assert undone["deals"] == [] and "voided: failed" in undone["html"]


def test_a_reconnecting_page_gets_the_deals_it_missed_once(live_server, nap, evening):
    nap("hand 3 --by Cat --made")
    nap("hand 4 --by Dan --failed")
    # The browser sends the id of the last event it saw; deal 1's record has id 1.
    headers = {"last-event-id": "1"}
    with httpx2.stream(
        "GET", f"{live_server.url}/s/1/events", headers=headers, timeout=10
    ) as stream:
        assert next(events(stream))["deals"] == ["2", "3"]


def test_events_of_an_unknown_session_are_404(live_server, evening):
    assert httpx2.get(f"{live_server.url}/s/9/events", timeout=10).status_code == 404


def test_an_overflowing_last_event_id_starts_afresh_not_a_crash(live_server, evening):
    headers = {"last-event-id": "9" * 23}
    with httpx2.stream(
        "GET", f"{live_server.url}/s/1/events", headers=headers, timeout=10
    ) as stream:
        first = next(events(stream))
        assert first["deals"] == [] and 'data-deal="1"' in first["html"]


def test_a_stream_ends_with_the_reason_when_its_database_file_is_replaced(
    live_server, evening, db_path
):
    with httpx2.stream("GET", f"{live_server.url}/s/1/events", timeout=10) as stream:
        feed = events(stream)
        assert next(feed)["deals"] == []
        copy = db_path.with_name("restored.db")
        shutil.copy(db_path, copy)
        os.replace(copy, db_path)  # a backup restored over the file the server opened
        ended = next(feed)
        assert ended["event"] == "ended"
        assert "no longer the database file opened at the start" in ended["message"]
        assert list(feed) == []  # and the stream is over, not left open and silent
    # A write is told the same.
    page = httpx2.post(
        f"{live_server.url}/s/1/pass",
        data={"key": live_server.key},
        headers={"origin": live_server.url},
        timeout=10,
    )
    assert "no longer the database file opened at the start" in page.text


class Deaf(Changes):
    """Hears nothing: what reaches a page then came from the server's own write."""

    def __init__(self) -> None:
        self.closed = threading.Event()

    def wait(self, timeout: float) -> bool:
        self.closed.wait(timeout)  # nothing to hear: the quiet while, or until closed
        return False

    def close(self) -> None:
        self.closed.set()


@pytest.fixture
def no_polling(monkeypatch):
    # A watcher would otherwise look by itself now and then: here it never does.
    monkeypatch.setattr(live, "POLL_SECONDS", 3600)
    monkeypatch.setattr(live, "UNTOLD_SECONDS", 3600)


def test_a_deal_entered_on_the_keepers_page_reaches_open_pages_with_nothing_polling(
    live_server, evening, no_polling, monkeypatch
):
    monkeypatch.setattr(Database, "changes", lambda database: Deaf())
    with httpx2.stream("GET", f"{live_server.url}/s/1/events?since=0", timeout=10) as stream:
        feed = events(stream)
        assert next(feed)["deals"] == ["1"]
        answer = httpx2.post(
            f"{live_server.url}/s/1/hand",
            data={"key": live_server.key, "bid": "3", "by": "Cat", "result": "made", "number": "2"},
            headers={"origin": live_server.url},
            timeout=10,
        )
        assert answer.status_code == 303
        pushed = next(feed)  # woken by the write itself: without it, this read times out
        assert pushed["deals"] == ["2"] and "Cat three · made" in pushed["html"]


def test_a_deal_written_by_another_connection_is_heard_with_nothing_polling(
    live_server, nap, evening, no_polling
):
    with httpx2.stream("GET", f"{live_server.url}/s/1/events", timeout=10) as stream:
        feed = events(stream)
        next(feed)
        nap("hand 3 --by Dan --failed")  # its own engine: SQLite's data version, or NOTIFY
        pushed = next(feed)
        assert pushed["deals"] == ["2"] and "Dan three · failed" in pushed["html"]


def test_the_live_board_of_a_long_evening_is_the_pages_board_and_stops_growing():
    kept = KeptHistory()
    with Database() as database:
        with database.write() as tx:
            tx.new_session("long", load_preset("classic"), ["Ann", "Ben", "Cat", "Dan"])
            s = tx.session("long")
            for n in range(CHART_STEPS + 60):
                s.record(DealOptions(bid="3", by=("Ann", "Ben", "Cat", "Dan")[n % 4], tricks=n % 6))
        for _ in range(2):
            with database.write() as tx:
                tx.session("long").pass_()
            board = page_board(database, 1, kept=kept)
            assert board == page_board(database, 1)  # the page's own board, to the chip
            series = dict(board.series)
            assert {len(values) for values in series.values()} == {CHART_STEPS}
            assert all(series[p.player][-1] == p.chips for p in board.players)  # ends as it stands
            chart = running_chart(board.series)
            assert chart is not None
            assert {len(line.points.split()) for line in chart.lines} == {CHART_STEPS + 1}
    assert kept.full_reads == 1  # read once, then extended by the new deal


def test_one_listening_thread_wakes_the_watchers_and_ends_with_the_server(no_polling):
    marks = {"value": 1}
    told = threading.Event()  # set by the test: "something was committed"

    class Told(Changes):
        closed = False

        def wait(self, timeout: float) -> bool:
            heard = told.wait(timeout)
            told.clear()
            return heard

        def close(self) -> None:
            Told.closed = True

    def make(session: int, lang: str = "en") -> live.Watch:
        return live.Watch(
            lambda: (marks["value"],), lambda _mark: (f"board {marks['value']}", marks["value"], ())
        )

    async def scenario() -> None:
        hub = live.Hub(make, changes=Told)
        async with hub.watching(7) as watch, hub.watching(8):
            assert hub.listener is not None and watch.interval == 3600  # no look of its own
            waiting = watch.changed
            marks["value"] = 2
            told.set()
            await asyncio.wait_for(waiting.wait(), 10)
            assert watch.snapshot is not None and watch.snapshot.html == "board 2"
        await hub.close()
        assert not hub.listener.is_alive() and Told.closed

    asyncio.run(scenario())


def test_a_backup_copied_over_the_file_ends_every_stream_and_refuses_writes(
    live_server, evening, db_path
):
    """`cp b.db m.db` under a running server: same file, older contents (#37)."""
    backup = db_path.with_name("b.db")
    source, copy = sqlite3.connect(db_path), sqlite3.connect(backup)
    source.backup(copy)
    source.close()
    copy.close()
    subprocess.run([sys.executable, "-m", "napledger", "pass"], check=True, capture_output=True)
    with (
        httpx2.stream("GET", f"{live_server.url}/s/1/events", timeout=10) as board,
        httpx2.stream("GET", f"{live_server.url}/events", timeout=10) as sessions,
    ):
        boards, lists = events(board), events(sessions)
        assert next(boards)["deals"] == [] and next(lists)["html"]
        shutil.copyfile(backup, db_path)  # the same inode, the backup's pages
        for feed in (boards, lists):
            ended = next(feed)
            assert ended["event"] == "ended"
            assert "no longer holds the ledger opened at the start" in ended["message"]
            assert list(feed) == []
    page = httpx2.post(
        f"{live_server.url}/s/1/pass",
        data={"key": live_server.key},
        headers={"origin": live_server.url},
        timeout=10,
    )
    assert "no longer holds the ledger opened at the start" in page.text


def test_the_sessions_list_ends_with_the_reason_when_its_file_is_moved(
    live_server, evening, db_path
):
    with httpx2.stream("GET", f"{live_server.url}/events", timeout=10) as stream:
        feed = events(stream)
        assert "fri" in next(feed)["html"]
        os.replace(db_path, db_path.with_name("moved.db"))
        ended = next(feed)
        assert ended["event"] == "ended"
        assert "no longer the database file opened at the start" in ended["message"]
        assert list(feed) == []
