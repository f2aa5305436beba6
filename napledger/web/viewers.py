"""What anyone at the table may see: the list of sessions, a session's page and its data,
and what a phone needs to keep the page as an app."""

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from napledger.core import words
from napledger.core.errors import NapError
from napledger.core.words import _
from napledger.service import page as read
from napledger.web.access import Organising
from napledger.web.keys import organiser_key
from napledger.web.pages import page, show, with_keys
from napledger.web.site import DB, OnSite

router = APIRouter()
KEPT_DOCUMENTS = 8  # the few sessions being played; another is written afresh


@router.get("/app.webmanifest")
def manifest(start: Annotated[str, Query(max_length=300)] = "/") -> Response:
    """What a phone needs to keep the page as an app: full screen, opening at `start`."""
    if not start.startswith("/") or start.startswith("//") or "\\" in start:
        start = "/"  # only a page of this server, never another site
    document = {
        "name": "napledger",
        "short_name": "Nap",
        "description": _("The Nap table's scoreboard and scorekeeper"),
        "lang": words.language(),
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "background_color": "#f3f1ea",
        "theme_color": "#1d3b2a",
        "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }
    headers = {"cache-control": "no-store"} if "key=" in start else None
    return JSONResponse(document, media_type="application/manifest+json", headers=headers)


@router.get("/", response_class=HTMLResponse)
def index(request: Request, site: OnSite, organising: Organising) -> Response:
    try:
        with site.database.read() as tx:
            sessions = read.sessions(tx)  # read once: it scores every session
    except NapError as error:
        if not organising:
            return page(request, "message.html", title=_("No sessions yet"), message=str(error))
        sessions = []
    # No database yet: the organiser can start the first session. The organiser's list
    # links each session's scorekeeper page, with its own key.
    context = with_keys(sessions, organising, site.secret)
    if organising:
        context["key"] = organiser_key(site.secret)  # marks the page not to be cached
    return page(request, "index.html", **context)


@router.get("/s/{session}/json")
def as_json(session: int, site: OnSite) -> Response:
    """What the page shows, as data: the documents the command line prints with --json.

    Drawn from the page's kept history, and kept as written until the session changes:
    a stranger asking again and again costs a few indexed queries, not the evening."""
    db = site.database
    with db.read() as tx:
        s = tx.session(str(session))
        mark = s.last_change()
        written = site.documents.get(session)
        if written is None or written[0] != mark:
            document = read.documents(s, site.kept_for(session))
            written = (mark, bytes(JSONResponse(document).body))
            site.documents[session] = written
            while len(site.documents) > KEPT_DOCUMENTS:
                site.documents.pop(next(iter(site.documents)))
    return Response(written[1], media_type="application/json")


@router.get("/s/{session}", response_class=HTMLResponse)
def viewer(request: Request, session: int, db: DB) -> Response:
    return show(request, db, session)
