"""The live lists of sessions redraw once per change, and only the row that changed: a
deal at one table never rescores every session on the database (counted, not timed)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from anyio import to_thread
from fastapi.testclient import TestClient

from napledger.core.options import DealOptions
from napledger.core.read.messages import recorded
from napledger.service import page as read
from napledger.web import live
from napledger.web.app import create_app
from napledger.web.streams import ORGANISERS, SESSIONS
from tests.web.conftest import SECRET
from tests.web.test_live import no_polling  # noqa: F401 (a fixture)


def record(database: Any, session: int, deal: DealOptions) -> str:
    """A deal recorded as the keeper's page records it."""
    with database.write() as tx:
        return recorded(tx.session(str(session)).record(deal))


def counted(calls_made: list[Any], function: Callable[..., Any]) -> Callable[..., Any]:
    def counting(*args: Any) -> Any:
        calls_made.append(args)
        return function(*args)

    return counting


def test_rows_are_drawn_again_only_when_their_own_mark_moves():
    marks = {1: "a", 2: "b"}
    drawn: list[list[int]] = []

    def draw(ids):
        drawn.append(sorted(ids))
        return {i: f"row {i} at {marks[i]}" for i in ids}

    rows = live.Rows(lambda: dict(marks), draw)
    first = rows.fingerprint()
    assert rows.rows(first) == ["row 2 at b", "row 1 at a"] and drawn == [[1, 2]]  # newest first
    again = rows.fingerprint()
    assert again == first and rows.rows(again) and drawn == [[1, 2]]  # nothing moved
    marks[2] = "b2"
    moved = rows.fingerprint()
    assert moved != first
    assert rows.rows(moved) == ["row 2 at b2", "row 1 at a"] and drawn == [[1, 2], [2]]
    marks[3] = "c"  # a new session
    assert rows.rows(rows.fingerprint())[0] == "row 3 at c" and drawn[-1] == [3]


def test_a_list_is_drawn_from_the_marks_its_own_watcher_read():
    # Two lists share the rows. One reads the marks before a deal at table 2, the other
    # after; the first's older marks, read last, must not decide what the second draws
    # (it would keep the old row under the new marks and never draw the deal).
    marks = {1: "a", 2: "b"}
    rows = live.Rows(lambda: dict(marks), lambda ids: {i: f"row {i} at {marks[i]}" for i in ids})
    before = rows.fingerprint()
    marks[2] = "b2"
    after = rows.fingerprint()
    assert rows.rows(after) == ["row 2 at b2", "row 1 at a"]
    assert rows.rows(before)[0] == "row 2 at b2"  # drawn now: never older than its marks
    assert rows.rows(after) == ["row 2 at b2", "row 1 at a"]


def test_one_deal_redraws_its_own_row_once_for_every_open_list(nap, monkeypatch, no_polling):  # noqa: F811
    for name in ("thu", "fri", "sat"):
        nap(f"new {name} --players Ann,Ben,Cat")
    scored: list[Any] = []  # every session's row drawn from its scoreboard
    monkeypatch.setattr(read, "session_items", counted(scored, read.session_items))
    every: list[Any] = []  # the whole list, every session scored
    monkeypatch.setattr(read, "sessions", counted(every, read.sessions))
    app = create_app(None, SECRET)
    hub = app.state.hub

    async def scenario() -> None:
        async with (
            hub.watching(SESSIONS, "en") as viewers,
            hub.watching(ORGANISERS, "en") as organiser,
        ):
            lists = (viewers, organiser)
            renders: list[Any] = []
            for watch in lists:
                watch.render = counted(renders, watch.render)
            assert [sorted(ids) for _, ids in scored] == [[1, 2, 3]]  # each row once, for both
            waiting = [watch.changed for watch in lists]
            deal = DealOptions(bid="nap", by="Ann", tricks=5)
            database = app.state.database
            await to_thread.run_sync(record, database, 2, deal)  # as the keeper's page
            hub.written(2)
            await asyncio.wait_for(asyncio.gather(*(w.wait() for w in waiting)), 10)
            # The same change heard again (the listening thread), and a look of their own:
            # nothing moved, nothing is drawn.
            for watch in lists:
                await watch.refresh()
                await watch.refresh()
            assert [sorted(ids) for _, ids in scored] == [[1, 2, 3], [2]]  # only fri's row
            assert len(renders) == 2  # each list drawn once
            assert all('data-hands="1"' in w.snapshot.html for w in lists)
            assert "key=" in organiser.snapshot.html and "key=" not in viewers.snapshot.html
            # Another session made current (`use`, in a terminal): the two rows it marks.
            await to_thread.run_sync(nap, "use thu")
            for watch in lists:
                await watch.refresh()
            assert [sorted(ids) for _, ids in scored][2:] == [[1, 3]]
            assert len(renders) == 4
        assert every == []  # no live list ever scored every session

    with TestClient(app):  # the server's lifespan: its database opened and closed
        asyncio.run(scenario())


def test_the_page_of_sessions_reads_them_once(client, nap, monkeypatch):
    nap("new fri --players Ann,Ben,Cat")
    every: list[Any] = []
    monkeypatch.setattr(read, "sessions", counted(every, read.sessions))
    assert ">fri</a>" in client.get("/").text
    assert len(every) == 1  # it scores every session: once a page, not twice
