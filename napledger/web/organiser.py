"""The organiser's pages: starting a session (with its links and QR codes)."""

from collections.abc import Mapping
from typing import Annotated
from urllib.parse import urlencode

from anyio import to_thread
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from napledger.core.errors import NapError
from napledger.core.words import _
from napledger.service.api import Database
from napledger.web import calls
from napledger.web.access import STARTING, Organiser, check_key, refuse_cross_site
from napledger.web.keys import organiser_key, session_key
from napledger.web.pages import one_line, page, qr
from napledger.web.site import DB, OnSite, on_site

router = APIRouter()


@router.get("/new", response_class=HTMLResponse)
def new_form(
    request: Request,
    db: DB,
    key: Organiser,
    game: Annotated[str, Query(max_length=40)] = "classic",
) -> Response:
    return starting(request, db, key, game)


def starting(
    request: Request,
    db: Database,
    key: str,
    game: str,
    typed: Mapping[str, str] | None = None,
    error: str | None = None,
) -> Response:
    """The organiser's form for a new session, with what was typed kept after a refusal."""
    games = calls.games(on_site(request).house)
    chosen = next((g for g in games if g.name == game), games[0])
    try:
        closed = [s for s in calls.sessions(db) if s.closed]
    except NapError:  # no database yet: nothing to carry a pot from
        closed = []
    return page(
        request,
        "new.html",
        400 if error else 200,
        key=key,
        games=games,
        game=chosen,
        closed=closed,
        typed=typed or {},
        error=error,
    )


@router.post("/new", response_class=HTMLResponse)
async def new_session(request: Request, site: OnSite) -> Response:
    refuse_cross_site(request)
    # The whole form: the settings' fields are named by the game chosen (`rule.NAME`).
    form = await request.form()
    typed = {k: v for k, v in form.items() if isinstance(v, str)}
    key = typed.get("key")
    await check_key(site, request, key, organiser_key(site.secret), STARTING)
    assert key is not None
    game = typed.get("game", "classic")
    settings = {k.removeprefix("rule."): v for k, v in typed.items() if k.startswith("rule.")}
    db = site.database
    try:
        done = await to_thread.run_sync(
            lambda: calls.new_session(
                db,
                name=typed.get("name", ""),
                game=game,
                players=typed.get("players", ""),
                settings=settings,
                chip=typed.get("chip", ""),
                currency=typed.get("currency", ""),
                dealer=typed.get("dealer", ""),
                carry_from=typed.get("carry_from", ""),
                house=site.house,
            )
        )
    except NapError as error:
        line = one_line(error)
        return await to_thread.run_sync(lambda: starting(request, db, key, game, typed, line))
    site.hub.written(done.id)  # the open lists of sessions show the new table now
    base = str(request.base_url).rstrip("/")
    viewers = f"{base}/s/{done.id}"
    keeper = f"{viewers}/keep?" + urlencode({"key": session_key(site.secret, done.id)})
    return page(
        request,
        "started.html",
        key=key,
        lines=done.lines,
        links=[(_("Viewers"), viewers, qr(viewers)), (_("Scorekeeper"), keeper, qr(keeper))],
    )
