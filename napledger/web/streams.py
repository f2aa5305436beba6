"""The live streams: the board of a session, and the lists of sessions, sent again after
every change (server-sent events), drawn once per change for every open page (`Hub`)."""

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.templating import Jinja2Templates

from napledger.core import words
from napledger.core.errors import NapError
from napledger.core.read.page import SessionItem
from napledger.service import page as read
from napledger.service.api import Database
from napledger.service.kept import KeptHistory
from napledger.web.access import Organising
from napledger.web.chart import running_chart
from napledger.web.crowd import CROWDED_RETRY_MS, RETRY_MS, Crowded
from napledger.web.live import Hub, Revisions, Rows, Watch
from napledger.web.pages import with_keys
from napledger.web.site import OnSite, Site

# The watchers of the two lists of sessions, beside the sessions' own (whose ids start at 1).
SESSIONS, ORGANISERS = 0, -1

# The largest id a database holds; a bigger one in a request is nonsense, not a crash.
MAX_ID = 2**63 - 1

router = APIRouter()


def live_hub(database: Database, templates: Jinja2Templates, secret: str) -> Hub:
    """The watchers of one server: each session's board, and the two lists of sessions."""
    env = templates.env

    def session_marks() -> Mapping[int, object]:
        # The file opened at the start moved, replaced or deleted: the lists end too,
        # saying so, rather than telling every page that no table is playing.
        database.check_same_files()
        try:
            with database.read() as tx:
                return read.session_marks(tx)
        except NapError:  # no database yet: no sessions, and the list says so
            return {}

    # The live lists' rows, one set per language (a row's game title is in it), shared by
    # the viewers' and the organiser's lists: a change at one table redraws its row once.
    list_rows: dict[str, Rows[SessionItem]] = {}

    def items(ids: Iterable[int]) -> dict[int, SessionItem]:
        with database.read() as tx:
            return read.session_items(tx, ids)

    def last_change(session: int) -> tuple[object, ...]:
        with database.read() as tx:
            return tx.session(str(session)).last_change()

    def watch_list(organising: bool, lang: str) -> Watch:
        if lang not in list_rows:
            list_rows[lang] = Rows(session_marks, items)
        rows = list_rows[lang]

        def render(marks: tuple[Any, ...]) -> tuple[str, int, Revisions]:
            with words.speaking(lang):
                context = with_keys(rows.rows(marks), organising, secret)
                html = env.get_template("sessions.html").render(**context)
            return html, 0, ()

        return Watch(rows.fingerprint, render)

    def watch(session: int, lang: str) -> Watch:
        if session in (SESSIONS, ORGANISERS):  # the lists follow every session
            return watch_list(session == ORGANISERS, lang)
        kept = KeptHistory()  # the evening scored so far: each change scores only what is new

        def render(_mark: tuple[Any, ...]) -> tuple[str, int, Revisions]:
            # Drawn as the database is now, which is at least as new as the mark.
            with words.speaking(lang):  # the page's language: the watcher runs on its own
                with database.read() as tx:
                    board = read.board(tx.session(str(session)), kept)
                chart = running_chart(board.series, board.steps)
                html = env.get_template("board.html").render(board=board, chart=chart)
            return html, board.newest, kept.revisions()

        return Watch(lambda: last_change(session), render)

    return Hub(watch, changes=database.changes, check=database.check_same_ledger)


@router.get("/events", response_class=EventSourceResponse)
async def list_events(
    request: Request, site: OnSite, organising: Organising
) -> AsyncIterator[ServerSentEvent]:
    """The list of sessions after every change at any table: tonight's open tables
    live (with their keepers' links, on the organiser's stream only)."""
    watched = ORGANISERS if organising else SESSIONS
    async for event in follow(request, site, watched, None):
        yield event


async def existing(session: int, site: OnSite) -> int:
    """The id of a session that exists, checked before a stream starts (then it is too
    late to 404). The id found, not the number typed: a session may be *named* `-1` or
    `0`, and those numbers are the lists' own streams (the organiser's with every key)."""
    return await to_thread.run_sync(
        session_id, site.database, str(session), limiter=site.stream_starts
    )


def session_id(database: Database, ref: str | None) -> int:
    """The id of the session a link names (an id or a name; none: the current one)."""
    with database.read() as tx:
        return tx.session(ref).info.id


@router.get("/s/{session}/events", response_class=EventSourceResponse)
async def events(
    request: Request,
    site: OnSite,
    session: Annotated[int, Depends(existing)],
    since: Annotated[int | None, Query(ge=0, le=MAX_ID)] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> AsyncIterator[ServerSentEvent]:
    """The board after every change, and which deals arrived since the last event.

    Each viewer counts from the deal its page showed (or the browser's Last-Event-ID
    after a reconnect), so every deal is announced to it once, none lost or doubled.
    """
    resumed = (
        last_event_id is not None
        and last_event_id.isascii()
        and last_event_id.isdigit()
        and len(last_event_id) <= 19  # checked before int(): any length parses slowly
        and int(last_event_id) <= MAX_ID  # a bigger one is not ours: start afresh
    )
    seen = int(last_event_id) if resumed and last_event_id else since
    async for event in follow(request, site, session, seen):
        yield event


async def follow(
    request: Request, site: Site, watched: int, seen: int | None
) -> AsyncIterator[ServerSentEvent]:
    """The events of one stream, from its admission (`Crowd`) to its end: the server
    stopping, its lifetime over (the page comes back by itself), or the board's end."""
    address = request.client.host if request.client else "unknown"
    try:
        lifetime = site.crowd.admit(address)
    except Crowded:  # answered at once: the page tries again later, by itself
        yield ServerSentEvent(comment="busy", retry=CROWDED_RETRY_MS)
        return
    try:
        async for event in board_events(site, watched, seen, lifetime):
            yield event
    finally:
        site.crowd.leave(address)


async def board_events(
    site: Site, watched: int, seen: int | None, lifetime: float
) -> AsyncIterator[ServerSentEvent]:
    """The board after every change, and which deals arrived since the last event."""
    hub = site.hub
    ends = asyncio.get_running_loop().time() + lifetime
    async with hub.watching(watched, words.language()) as watch:
        while not hub.stopping:
            if watch.ended is not None:
                yield ServerSentEvent(event="ended", data={"message": watch.ended})
                return
            waiting = watch.changed
            snapshot = watch.snapshot
            assert snapshot is not None
            if watched < 1:  # a list of sessions: the rows only
                yield ServerSentEvent(data={"deals": [], "html": snapshot.html}, retry=RETRY_MS)
            else:
                if seen is None:
                    seen = snapshot.newest
                    arrived: list[tuple[int, str]] = []
                else:
                    arrived = watch.arrived(seen)  # from the watcher's snapshot: no query
                    seen = max([seen, *(deal_id for deal_id, _ in arrived)])
                yield ServerSentEvent(
                    data={"deals": [label for _, label in arrived], "html": snapshot.html},
                    id=str(seen),
                    retry=RETRY_MS,
                )
            left = ends - asyncio.get_running_loop().time()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiting.wait(), max(0.0, left))
            if not waiting.is_set():
                return  # its lifetime is over: the page reconnects, from the deal it saw
