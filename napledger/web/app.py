"""The FastAPI app: the viewers' pages, the scorekeeper's page, and their live updates.

Every route turns a request into one call of `napledger.web.calls` and renders what
comes back; the ledger's rules and messages are the CLI's own. The database (`DB`) and
the keys are dependencies; each of the keeper's writes is a route of its own that reads
only its own fields (the deal form's through `napledger.web.deal_form`) and is answered,
or refused with everything tapped kept, in one place (`Write`). (No postponed
annotations: FastAPI reads the route signatures, whose dependencies are local functions.)
"""

import asyncio
import hashlib
import hmac
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Annotated, Any
from urllib.parse import quote, urlencode, urlsplit

from anyio import to_thread
from fastapi import Depends, FastAPI, Form, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from napledger.core import words
from napledger.core.errors import DealError, NapError
from napledger.core.numbers import signed
from napledger.core.rules import Rules
from napledger.core.words import N_, _
from napledger.service.api import Database
from napledger.service.kept import KeptHistory
from napledger.web import calls
from napledger.web.chart import running_chart
from napledger.web.deal_form import (
    Count,
    Deal,
    DealExtras,
    DealForm,
    Extras,
    Name,
    blank,
    counted,
    deal_number,
    next_number,
    shown_number,
    version,
)
from napledger.web.forms_only import FormsOnly
from napledger.web.keys import TooManyTries, WrongKeys, derive, organiser_key, session_key
from napledger.web.live import Hub, Revisions, Rows, Watch
from napledger.web.speech import Speaking

# Starlette's own refusals, translated where shown (`http_error`).
STARLETTE_WORDS = (N_("Not Found"), N_("Method Not Allowed"))

HERE = files("napledger.web")
# Scripts and styles only from this server, as files: an injected <script> or inline
# handler cannot run, and the page loads nothing from the internet.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # the keeper's link holds the secret: never sent away
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Adds the headers above to every response, streams included (plain ASGI)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


# The watchers of the two lists of sessions, beside the sessions' own (whose ids start at 1).
SESSIONS, ORGANISERS = 0, -1

# The largest id a database holds; a bigger one in a request is nonsense, not a crash.
MAX_ID = 2**63 - 1


def opened(request: Request) -> Database:
    """The server's one database, opened at start: what every route reads and writes."""
    database: Database = request.app.state.database
    return database


DB = Annotated[Database, Depends(opened)]


def create_app(
    db: str | None,
    secret: str,
    hosts: Sequence[str] | None = None,
    wrong_keys: WrongKeys | None = None,
    house: Mapping[str, Rules] | None = None,
) -> FastAPI:
    """The server over database `db`; `secret` is what every key is derived from
    (`napledger.web.keys`); `hosts`, when given, the only names the server answers to
    (any in tests); `wrong_keys` counts and slows wrong keys (a fresh count by default);
    `house` the house-rule files serve was given, read at start, by their game's name."""
    # One database for the server's life: its engines are kept, not reopened per request.
    database = Database(db)
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
    env.filters["signed"] = signed
    env.filters.update(calls.FILTERS)  # how the read model's numbers are written
    templates = Jinja2Templates(env=env)

    def with_keys(sessions: list[calls.SessionItem], organising: bool) -> dict[str, Any]:
        keys = {s.id: session_key(secret, s.id) for s in sessions} if organising else {}
        return {"sessions": sessions, "keys": keys}

    def session_marks() -> Mapping[int, object]:
        try:
            return calls.session_marks(database)
        except NapError:  # no database yet: no sessions, and the list says so
            return {}

    # The live lists' rows, one set per language (a row's game title is in it), shared by
    # the viewers' and the organiser's lists: a change at one table redraws its row once.
    list_rows: dict[str, Rows[calls.SessionItem]] = {}

    def watch_list(organising: bool, lang: str) -> Watch:
        if lang not in list_rows:
            list_rows[lang] = Rows(session_marks, lambda ids: calls.session_items(database, ids))
        rows = list_rows[lang]

        def render(marks: tuple[Any, ...]) -> tuple[str, int, Revisions]:
            with words.speaking(lang):
                context = with_keys(rows.rows(marks), organising)
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
                board = calls.board(database, session, kept=kept)
                chart = running_chart(board.series, board.steps)
                html = env.get_template("board.html").render(board=board, chart=chart)
            return html, board.newest, kept.revisions()

        return Watch(lambda: calls.last_change(database, session), render)

    hub = Hub(watch, changes=database.changes)

    @lru_cache(maxsize=8)  # the few sessions being played; another is read afresh
    def kept_for(session: int) -> KeptHistory:
        # The pages' own, not a watcher's: each keeps what it rendered consistent.
        return KeptHistory()

    languages: dict[int, str | None] = {}

    def kept_language(session: int) -> str | None:
        """The language a session keeps (`new --lang`), read once: it never changes."""
        if session not in languages:
            try:
                languages[session] = calls.kept_language(database, session)
            except NapError:  # no such session (yet): its 404 is in the browser's language
                return None
            if len(languages) > 1000:  # a server up for years: forget, read again
                languages.clear()
        return languages.get(session)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        # Called from a signal handler when Ctrl-C arrives, hence thread-safe.
        _app.state.stop_live = lambda: loop.call_soon_threadsafe(hub.stop)
        with database:
            # Open the reading engine now, not in two request threads at once (with no
            # database yet there is nothing to open: the list of sessions says so).
            with suppress(NapError):
                await to_thread.run_sync(calls.session_marks, database)  # no session scored
            yield
            await hub.close()

    # No /docs, /redoc or /openapi.json: the pages are the interface, and a schema would
    # only describe the scorekeeper's forms to whoever asks.
    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.database = database
    app.state.hub = hub  # the live pages' watchers: the tests count what they draw
    if hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))
    app.add_middleware(FormsOnly)  # no upload is read or spooled before the key is checked
    app.add_middleware(Speaking, kept=kept_language)
    app.add_middleware(SecurityHeaders)  # added last, so outermost: on the refusals too
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        # "Add to Home Screen" opens the page it was added from (with its key, for the
        # keeper); after a form's answer, the list of sessions.
        start = request.url.path if request.method == "GET" else "/"
        if context.get("key") and request.method == "GET":
            start += "?" + urlencode({"key": context["key"]})
        context.setdefault("app_start", start)
        response = templates.TemplateResponse(request, name, context, status_code=status)
        if context.get("key"):
            response.headers["cache-control"] = "no-store"
        return response

    wrong_keys = wrong_keys or WrongKeys()

    async def check_key(request: Request, given: str | None, expected: str, refusal: str) -> None:
        address = request.client.host if request.client else "unknown"
        try:
            right = await wrong_keys.check(address, given, expected)
        except TooManyTries:
            raise HTTPException(
                429, N_("too many wrong keys from this address: wait a minute, then use the link")
            ) from None
        if not right:
            raise HTTPException(403, refusal)

    async def keeper_page(
        request: Request, session: int, key: Annotated[str | None, Query()] = None
    ) -> str:
        """The session's own key, from its scorekeeper link: no other session's."""
        refusal = N_("this link cannot change the ledger; ask for the scorekeeper's link")
        await check_key(request, key, session_key(secret, session), refusal)
        assert key is not None
        return key

    async def keeper_write(
        request: Request, session: int, key: Annotated[str, Form(max_length=200)] = ""
    ) -> str:
        """Every write's check: from this server's page, with the session's own key."""
        # The origin first: another site's post is refused whatever key it carries.
        refuse_cross_site(request)
        refusal = N_("only the scorekeeper's link can change the ledger")
        await check_key(request, key, session_key(secret, session), refusal)
        return key

    Keeper = Annotated[str, Depends(keeper_write)]

    # Signs the success line a write redirects with: from the server's secret, so the
    # line survives a restart with the same secret, and no link can carry other text.
    said_secret = derive(secret, "said").encode()

    def signature(session: int, said: str) -> str:
        text = f"{session}\n{said}".encode()
        return hmac.new(said_secret, text, hashlib.sha256).hexdigest()

    def said_here(session: int, said: str | None, sig: str | None) -> bool:
        """Whether `said` is a message this server made for this session (any other text
        in a link is never shown as the success line)."""
        if said is None or sig is None or not sig.isascii():
            return False
        return hmac.compare_digest(sig.encode(), signature(session, said).encode())

    def told(session: int, key: str, said: str) -> Response:
        """Back to the keeper's page after a write, with what was done. The message rides
        along signed: the page shows only what this server said."""
        target = f"/s/{session}/keep?" + urlencode(
            {"key": key, "said": said, "sig": signature(session, said)}
        )
        return RedirectResponse(target, status_code=303)

    def refuse_cross_site(request: Request) -> None:
        """A write must come from this server's own page: no other site can post one."""
        site = request.headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            raise HTTPException(403, N_("cross-site requests cannot change the ledger"))
        origin = request.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
            raise HTTPException(403, N_("cross-site requests cannot change the ledger"))

    @app.exception_handler(NapError)
    async def cannot_show(request: Request, error: NapError) -> Response:
        # Mostly a session that is not there; the message says what it was.
        return page(request, "message.html", 404, title=_("Cannot show that"), message=str(error))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        titles = {
            403: _("Not allowed"),
            404: _("Not found"),
            405: _("Not allowed"),
            429: _("Not allowed"),
        }
        return page(
            request,
            "message.html",
            error.status_code,
            title=titles.get(error.status_code, _("Cannot do that")),
            message=_(str(error.detail)),
        )

    @app.exception_handler(RequestValidationError)
    async def unreadable(request: Request, error: RequestValidationError) -> Response:
        # A hand-made address or form (a session that is not a number, a huge field).
        return page(
            request,
            "message.html",
            400,
            title=_("Cannot do that"),
            message=_("that request makes no sense here"),
        )

    @app.exception_handler(Exception)
    async def server_error(request: Request, error: Exception) -> Response:
        # A bug: the browser learns only that it happened, never a traceback.
        return HTMLResponse(
            f"<!doctype html><html lang={words.language()}><title>{_('Error')}</title><p>"
            + _("Something went wrong on the server; nothing was changed. Reload to try again.")
            + "</p>",
            status_code=500,
            # Starlette sends this outside every middleware, SecurityHeaders included.
            headers={name.decode(): value.decode() for name, value in HEADERS},
        )

    async def organiser(request: Request, key: Annotated[str | None, Query()] = None) -> bool:
        """Whether the organiser's key came; no key at all is a viewer, not a wrong try."""
        if key is None:
            return False
        refusal = N_("this link is not the organiser's; the list of sessions is at /")
        await check_key(request, key, organiser_key(secret), refusal)
        return True

    @app.get("/app.webmanifest")
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

    @app.get("/", response_class=HTMLResponse)
    def index(
        request: Request, db: DB, organising: Annotated[bool, Depends(organiser)]
    ) -> Response:
        try:
            sessions = calls.sessions(db)  # read once: it scores every session
        except NapError as error:
            if not organising:
                return page(request, "message.html", title=_("No sessions yet"), message=str(error))
            sessions = []
        # No database yet: the organiser can start the first session. The organiser's list
        # links each session's scorekeeper page, with its own key.
        context = with_keys(sessions, organising)
        if organising:
            context["key"] = organiser_key(secret)  # marks the page not to be cached
        return page(request, "index.html", **context)

    async def organiser_only(request: Request, key: Annotated[str | None, Query()] = None) -> str:
        refusal = N_("starting a session needs the organiser's link, printed by serve")
        await check_key(request, key, organiser_key(secret), refusal)
        assert key is not None
        return key

    @app.get("/new", response_class=HTMLResponse)
    def new_form(
        request: Request,
        db: DB,
        key: Annotated[str, Depends(organiser_only)],
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
        games = calls.games(house)
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

    @app.post("/new", response_class=HTMLResponse)
    async def new_session(request: Request, db: DB) -> Response:
        refuse_cross_site(request)
        form = await request.form()
        typed = {k: v for k, v in form.items() if isinstance(v, str)}
        refusal = N_("starting a session needs the organiser's link, printed by serve")
        key = typed.get("key")
        await check_key(request, key, organiser_key(secret), refusal)
        assert key is not None
        game = typed.get("game", "classic")
        settings = {k.removeprefix("rule."): v for k, v in typed.items() if k.startswith("rule.")}
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
                    house=house,
                )
            )
        except NapError as error:
            line = one_line(error)
            return await to_thread.run_sync(lambda: starting(request, db, key, game, typed, line))
        hub.written(done.id)  # the open lists of sessions show the new table now
        base = str(request.base_url).rstrip("/")
        viewers = f"{base}/s/{done.id}"
        keeper = f"{viewers}/keep?" + urlencode({"key": session_key(secret, done.id)})
        return page(
            request,
            "started.html",
            key=key,
            lines=done.lines,
            links=[(_("Viewers"), viewers, qr(viewers)), (_("Scorekeeper"), keeper, qr(keeper))],
        )

    @app.get("/s/{session}/json")
    def as_json(session: int, db: DB) -> Response:
        """What the page shows, as data: the documents the command line prints with --json."""
        return JSONResponse(calls.documents(db, session))

    @app.get("/s/{session}", response_class=HTMLResponse)
    def viewer(request: Request, session: int, db: DB) -> Response:
        return show(request, db, session)

    @app.get("/s/{session}/keep", response_class=HTMLResponse)
    def keeper(
        request: Request,
        session: int,
        db: DB,
        key: Annotated[str, Depends(keeper_page)],
        said: Annotated[str | None, Query(max_length=300)] = None,
        sig: Annotated[str | None, Query(max_length=100)] = None,
        amend: Annotated[str | None, Query(max_length=20)] = None,
    ) -> Response:
        said = said if said_here(session, said, sig) else None
        try:
            fixing = counted(amend, "the deal number")
        except NapError as error:
            return show(request, db, session, 400, key=key, error=one_line(error))
        return show(request, db, session, key=key, said=said, fixing=fixing)

    @app.get("/s/{session}/workbook")
    def download(session: int, db: DB, _key: Annotated[str, Depends(keeper_page)]) -> Response:
        """The session's workbook, the very file `export` writes, for the keeper's phone."""
        name, content = calls.workbook(db, session)
        return Response(
            content,
            media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            headers={
                "content-disposition": f"attachment; filename*=UTF-8''{quote(name)}",
                "cache-control": "no-store",
            },
        )

    @app.get("/s/{session}/keep/controls", response_class=HTMLResponse)
    def keeper_controls(
        request: Request,
        session: int,
        db: DB,
        key: Annotated[str, Depends(keeper_page)],
        amend: Annotated[str | None, Query(max_length=20)] = None,
    ) -> Response:
        """The keeper's controls as they are now: the page swaps them in after a change
        (the form of the deal being amended, while one is). A deal being amended that is
        no longer there (voided elsewhere) gives the usual controls, saying so in place:
        the page's form of it is gone, never left to be saved or voided again."""
        board = calls.board(db, session, kept=kept_for(session))
        fixing = gone = None
        try:
            number = counted(amend, "the deal number")
            if number is not None and not board.closed:
                fixing = calls.amending(db, session, number)
        except NapError as error:
            gone = one_line(error)
        return page(request, "controls.html", board=board, key=key, fixing=fixing, gone=gone)

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
        board = calls.board(db, session, kept=kept_for(session))
        amending = None
        if fixing is not None and key is not None and not board.closed:
            try:
                amending = calls.amending(db, session, fixing)
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

    @app.get("/events", response_class=EventSourceResponse)
    async def list_events(
        organising: Annotated[bool, Depends(organiser)],
    ) -> AsyncIterator[ServerSentEvent]:
        """The list of sessions after every change at any table: tonight's open tables
        live (with their keepers' links, on the organiser's stream only)."""
        async with hub.watching(ORGANISERS if organising else SESSIONS, words.language()) as watch:
            while not hub.stopping and watch.ended is None:
                waiting = watch.changed
                assert watch.snapshot is not None
                yield ServerSentEvent(data={"deals": [], "html": watch.snapshot.html})
                await waiting.wait()

    async def existing(session: int, db: DB) -> int:
        """The id of a session that exists, checked before a stream starts (then it is too
        late to 404). The id found, not the number typed: a session may be *named* `-1` or
        `0`, and those numbers are the lists' own streams (the organiser's with every key)."""
        return await to_thread.run_sync(calls.session_id, db, str(session))

    @app.get("/s/{session}/events", response_class=EventSourceResponse)
    async def events(
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
        async with hub.watching(session, words.language()) as watch:
            while not hub.stopping:
                if watch.ended is not None:
                    yield ServerSentEvent(event="ended", data={"message": watch.ended})
                    return
                waiting = watch.changed
                snapshot = watch.snapshot
                assert snapshot is not None
                if seen is None:
                    seen = snapshot.newest
                    arrived: list[tuple[int, str]] = []
                else:
                    arrived = watch.arrived(seen)  # from the watcher's snapshot: no query
                    seen = max([seen, *(deal_id for deal_id, _ in arrived)])
                yield ServerSentEvent(
                    data={"deals": [label for _, label in arrived], "html": snapshot.html},
                    id=str(seen),
                )
                await waiting.wait()

    @dataclass(frozen=True)
    class Write:
        """One write of the keeper's to one session, its key checked (`keeper_write`):
        the database it goes to, and its answer, made in one place (`done`)."""

        request: Request
        session: int
        key: Keeper
        db: DB

        def done(
            self,
            act: Callable[[], str],
            form: DealForm | DealExtras | None = None,
            fixing: int | None = None,
        ) -> Response:
            """Back to the keeper's page with what `act` said, or its refusal on the page
            drawn again (`form`: what was tapped; `fixing`: the deal whose form comes back)."""
            try:
                said = act()
                hub.written(self.session)  # its pages follow now, not when the change is heard
            except NapError as error:
                return self.refused(error, form, fixing)
            return told(self.session, self.key, said)

        def refused(
            self,
            error: NapError,
            form: DealForm | DealExtras | None = None,
            fixing: int | None = None,
        ) -> Response:
            """The page as it is now, the reason above the form and beside the field it is
            about (where the core names one), everything tapped still tapped: the keeper
            corrects one thing, not all."""
            line = one_line(error)
            typed: dict[str, Any] = {}
            if form is not None:
                field = getattr(error, "field", None)
                typed = form.tapped() | {"refused": {"field": field, "why": line}}
            try:
                return show(
                    self.request,
                    self.db,
                    self.session,
                    400,
                    key=self.key,
                    error=line,
                    typed=typed,
                    fixing=fixing,
                )
            except NapError:  # the board cannot be read either (the file has gone)
                return page(self.request, "message.html", 400, title=_("Not saved"), message=line)

    Writing = Annotated[Write, Depends()]
    Pot = Annotated[str, Form(max_length=200)]

    # Ending a session: asked first, as `close` asks in a terminal, then done only if the
    # pot and its shares are still what the keeper agreed to.
    @app.post("/s/{session}/closing", response_class=HTMLResponse)
    def closing(write: Writing, pot: Pot = "split") -> Response:
        try:
            asked = calls.close_plan(write.db, write.session, pot)
        except NapError as error:
            return write.refused(error)
        board = calls.board(write.db, write.session, kept=kept_for(write.session))
        return page(write.request, "close.html", key=write.key, board=board, asked=asked)

    @app.post("/s/{session}/close", response_class=HTMLResponse)
    def close(
        write: Writing, pot: Pot = "split", seen: Annotated[str, Form(max_length=100)] = ""
    ) -> Response:
        return write.done(lambda: calls.close(write.db, write.session, pot, seen))

    @app.post("/s/{session}/reopen", response_class=HTMLResponse)
    def reopen(write: Writing) -> Response:
        return write.done(lambda: calls.reopen(write.db, write.session))

    # The keeper's deals and seats, one route each, each reading only its own fields.
    # Every form says what the page showed (`next_deal`, `number`, `revision`): the API
    # refuses a write drawn against an older board, and answers a repeat as the first.

    @app.post("/s/{session}/hand", response_class=HTMLResponse)
    def hand(write: Writing, deal: Deal, next_deal: Count = None) -> Response:
        def record() -> str:
            options = deal.options()
            if options.bid is None:
                raise DealError(_("choose a bid (or tap Pass for a passed-out deal)"), "bid")
            return calls.record(write.db, write.session, options, next_number(next_deal))

        return write.done(record, deal)

    @app.post("/s/{session}/pass", response_class=HTMLResponse)
    def pass_deal(write: Writing, extras: Extras, next_deal: Count = None) -> Response:
        def record() -> str:
            expected = next_number(next_deal)
            return calls.pass_deal(write.db, write.session, extras.options(), expected)

        return write.done(record, extras)

    @app.post("/s/{session}/amend", response_class=HTMLResponse)
    def amend(
        write: Writing,
        deal: Deal,
        number: Count = None,
        revision: Count = None,
        next_deal: Count = None,
        full: Annotated[str | None, Form(max_length=1)] = None,  # the amend form, whole
    ) -> Response:
        # The deal the keeper saw (picked, or the last one), at the version seen, and with
        # no deal recorded since: not whatever is last by now.
        whole_form = full == "1"

        def correct() -> str:
            return calls.amend(
                write.db,
                write.session,
                deal_number(number),
                deal.options(whole_form),
                version(revision),
                next_number(next_deal),
            )

        # A picked deal's refused correction comes back as that deal's form.
        return write.done(correct, deal, shown_number(number) if whole_form else None)

    @app.post("/s/{session}/void", response_class=HTMLResponse)
    def void(write: Writing, number: Count = None, revision: Count = None) -> Response:
        # The deal picked, at the version its form showed; refused, its form as it is now.
        def act() -> str:
            return calls.void(write.db, write.session, deal_number(number), version(revision))

        return write.done(act, fixing=shown_number(number))

    @app.post("/s/{session}/undo", response_class=HTMLResponse)
    def undo(write: Writing, number: Count = None, revision: Count = None) -> Response:
        # The deal the button named, not whatever is last by now.
        def act() -> str:
            named = counted(number, "the deal number")
            return calls.undo(write.db, write.session, named, version(revision))

        return write.done(act)

    @app.post("/s/{session}/join", response_class=HTMLResponse)
    def join(write: Writing, player: Name = None, after: Name = None) -> Response:
        # No name: the API says a name cannot be empty.
        return write.done(lambda: calls.join(write.db, write.session, player or "", blank(after)))

    @app.post("/s/{session}/leave", response_class=HTMLResponse)
    def leave(write: Writing, player: Name = None) -> Response:
        return write.done(lambda: calls.leave(write.db, write.session, player or ""))

    return app


def one_line(error: NapError) -> str:
    """A refusal as the page shows it: one line, however the message was wrapped."""
    return " ".join(str(error).split())


def qr(link: str) -> str:
    """A QR code of `link` as an image the page can show (a data: URL, allowed by the CSP)."""
    import segno

    return str(segno.make(link, error="m").svg_data_uri(scale=4, border=2))
