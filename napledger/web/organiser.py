"""The organiser's pages: starting a session (with its links and QR codes)."""

from collections.abc import Mapping
from typing import Annotated
from urllib.parse import urlencode

from anyio import to_thread
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from napledger.core.errors import NapError
from napledger.core.money import chip_value
from napledger.core.read.board import Scoreboard
from napledger.core.read.games import chosen_rules, games
from napledger.core.read.messages import started as started_said
from napledger.core.words import _
from napledger.service import page as read
from napledger.service.api import Database
from napledger.web.access import STARTING, Organiser, check_key, refuse_cross_site
from napledger.web.keys import organiser_key, session_key
from napledger.web.pages import one_line, page, qr
from napledger.web.said import said_here, signature
from napledger.web.site import DB, OnSite, on_site

router = APIRouter()


# What the form may carry back when the game is chosen again without scripts (or a
# refusal is reloaded): its own fields, each as long as the form lets it be.
CARRIED = {"name": 100, "players": 4000, "dealer": 100, "chip": 20, "currency": 10}
CARRIED |= {"carry_from": 100}
MOST_CARRIED = 64  # fields: the settings of any game are fewer


@router.get("/new", response_class=HTMLResponse)
def new_form(
    request: Request,
    db: DB,
    key: Organiser,
    game: Annotated[str, Query(max_length=40)] = "classic",
) -> Response:
    """The form, with whatever it carried in its address kept (nothing typed is lost
    when the game is chosen again)."""
    typed = {}
    for name, value in list(request.query_params.items())[:MOST_CARRIED]:
        longest = CARRIED.get(name, 20 if name.startswith("rule.") else 0)
        if longest and len(name) <= 60:
            typed[name] = value[:longest]
    return starting(request, db, key, game, typed)


def starting(
    request: Request,
    db: Database,
    key: str,
    game: str,
    typed: Mapping[str, str] | None = None,
    error: str | None = None,
) -> Response:
    """The organiser's form for a new session, with what was typed kept after a refusal."""
    offered = games(on_site(request).house)
    chosen = next((g for g in offered if g.name == game), offered[0])
    try:
        with db.read() as tx:
            closed = [s for s in read.sessions(tx) if s.closed]
    except NapError:  # no database yet: nothing to carry a pot from
        closed = []
    return page(
        request,
        "new.html",
        400 if error else 200,
        key=key,
        games=offered,
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

    def start() -> Scoreboard:
        """What `new NAME --players … --variant GAME --rule K=V … --chip … --currency …
        --dealer … --carry-from …` does (a box left empty is an option not typed)."""
        rules = chosen_rules(game, settings, site.house)
        # One name a line, as the form asks; commas too, as `--players A,B,C` takes them.
        players = [n for line in typed.get("players", "").splitlines() for n in line.split(",")]
        chip = typed.get("chip", "").strip()
        db.check_same_files()  # a restored backup must not silently take a new session
        return read.start(
            db,
            typed.get("name", ""),
            rules,
            [n for n in players if n.strip()],
            chip_value(chip) if chip else None,
            typed.get("currency", "").strip() or None,
            typed.get("dealer", "").strip() or None,
            typed.get("carry_from", "").strip() or None,
        )

    try:
        board = await to_thread.run_sync(start)
    except NapError as error:
        line = one_line(error)
        return await to_thread.run_sync(lambda: starting(request, db, key, game, typed, line))
    done = board.session.id
    site.hub.written(done)  # the open lists of sessions show the new table now
    # Answered with a redirect: reloading the page that shows the links asks for them
    # again, it never sends the form a second time ("there is already a session …").
    said = "\n".join(started_said(board))
    shown = {"key": key, "session": done, "said": said}
    shown["sig"] = signature(site.secret, done, said)
    return RedirectResponse("/new/started?" + urlencode(shown), status_code=303)


@router.get("/new/started", response_class=HTMLResponse)
def started(
    request: Request,
    site: OnSite,
    key: Organiser,
    session: Annotated[int, Query(ge=1, le=2**62)],
    said: Annotated[str | None, Query(max_length=2000)] = None,
    sig: Annotated[str | None, Query(max_length=100)] = None,
) -> Response:
    """The new session's links and QR codes, as often as the organiser asks; what `new`
    said is shown only as this server signed it."""
    base = str(request.base_url).rstrip("/")
    viewers = f"{base}/s/{session}"
    keeper = f"{viewers}/keep?" + urlencode({"key": session_key(site.secret, session)})
    lines = said.split("\n") if said and said_here(site.secret, session, said, sig) else []
    return page(
        request,
        "started.html",
        key=key,
        lines=lines,
        links=[(_("Viewers"), viewers, qr(viewers)), (_("Scorekeeper"), keeper, qr(keeper))],
    )
