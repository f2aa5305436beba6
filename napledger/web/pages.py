"""Drawing pages: the templates, a page with its headers, the session's board page, and
how a refusal or a link is shown."""

from collections.abc import Mapping
from importlib.resources import files
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from napledger.core import words
from napledger.core.errors import NapError
from napledger.core.ledger import account_name
from napledger.core.numbers import held, signed
from napledger.core.read.page import SessionItem
from napledger.service import page as read
from napledger.service.api import Database
from napledger.web.chart import running_chart
from napledger.web.deal_form import filled
from napledger.web.keys import session_key
from napledger.web.site import on_site

HERE = files("napledger.web")


def templates() -> Jinja2Templates:
    env = Environment(
        loader=FileSystemLoader(str(HERE / "templates")),
        autoescape=True,  # every name a player typed is text, never markup
        undefined=StrictUndefined,  # a misspelt field is an error in the tests, not a blank
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    # words.py's own functions, so each request's language (words.speaking) applies.
    env.install_gettext_callables(  # type: ignore[attr-defined]
        words._, words.ngettext, newstyle=True, pgettext=words.pgettext
    )
    env.globals["language"] = words.language
    env.globals["filled"] = filled  # a deal to amend, as its form's fields
    # How the templates write what the read model holds: the same functions as the terminal's.
    env.filters.update({"signed": signed, "held": held, "account": account_name})
    return Jinja2Templates(env=env)


def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    # "Add to Home Screen" opens the page it was added from (with its key, for the
    # keeper); after a form's answer, the list of sessions.
    start = request.url.path if request.method == "GET" else "/"
    if context.get("key") and request.method == "GET":
        start += "?" + urlencode({"key": context["key"]})
    context.setdefault("app_start", start)
    drawn = on_site(request).templates
    response = drawn.TemplateResponse(request, name, context, status_code=status)
    if context.get("key"):
        response.headers["cache-control"] = "no-store"
    return response


def show(
    request: Request,
    db: Database,
    session: int,
    status: int = 200,
    key: str | None = None,
    said: str | None = None,
    error: str | None = None,
    typed: Mapping[str, Any] | None = None,
    fixing: int | None = None,
) -> Response:
    """The session's page; after a refused deal, `typed` keeps what was tapped; with
    `fixing`, the keeper's form is that deal's, to amend or void it."""
    with db.read() as tx:
        s = tx.session(str(session))
        board = read.board(s, on_site(request).kept_for(session))
        amending = None
        if fixing is not None and key is not None and not board.closed:
            try:
                amending = read.amending(s, fixing)
            except NapError as refused:  # no such deal, or voided: said beside the form
                error = error or one_line(refused)
    return page(
        request,
        "session.html",
        status,
        board=board,
        chart=running_chart(board.series, board.steps),
        key=key,
        said=said,
        error=error,
        typed=typed or {},
        fixing=amending,
    )


def with_keys(sessions: list[SessionItem], organising: bool, secret: str) -> dict[str, Any]:
    """The list of sessions; the organiser's links each to its scorekeeper page."""
    keys = {s.id: session_key(secret, s.id) for s in sessions} if organising else {}
    return {"sessions": sessions, "keys": keys}


def one_line(error: NapError) -> str:
    """A refusal as the page shows it: one line, however the message was wrapped."""
    return " ".join(str(error).split())


def qr(link: str) -> str:
    """A QR code of `link` as an image the page can show (a data: URL, allowed by the CSP)."""
    import segno

    return str(segno.make(link, error="m").svg_data_uri(scale=4, border=2))
