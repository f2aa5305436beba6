"""The FastAPI app: the viewers' pages, the scorekeeper's page, and their live updates.

Every route calls the session service (`napledger.service`) as the CLI does and lays out
what the core's read model holds; the ledger's rules and messages are the CLI's own. The routes live in
routers by concern (`viewers`, `keeper`, `organiser`, `streams`, `downloads`); what they
share — the database, the secret, the templates, the live hub — is one `Site`, a
FastAPI dependency, and the keys are dependencies too (`napledger.web.access`).
Here they are only put together.
"""

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager, suppress

from anyio import to_thread
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from napledger.core.errors import NapError
from napledger.core.rules import Rules
from napledger.service import page as read
from napledger.service.api import Database
from napledger.web import downloads, keeper, organiser, streams, viewers
from napledger.web.forms_only import FormsOnly
from napledger.web.headers import SecurityHeaders
from napledger.web.keys import WrongKeys
from napledger.web.pages import HERE, templates
from napledger.web.refusals import answer_refusals
from napledger.web.site import Site
from napledger.web.speech import Speaking


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
    database = Database(db)
    drawn = templates()
    hub = streams.live_hub(database, drawn, secret)
    site = Site(database, secret, house or {}, wrong_keys or WrongKeys(), drawn, hub)
    # No /docs, /redoc or /openapi.json: the pages are the interface, and a schema would
    # only describe the scorekeeper's forms to whoever asks.
    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.site = site
    app.state.database = database
    app.state.hub = hub  # the live pages' watchers: the tests count what they draw
    if hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))
    app.add_middleware(FormsOnly)  # no upload is read or spooled before the key is checked
    app.add_middleware(Speaking, kept=site.kept_language)
    app.add_middleware(SecurityHeaders)  # added last, so outermost: on the refusals too
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    answer_refusals(app)
    for router in (viewers, keeper, organiser, streams, downloads):
        app.include_router(router.router)
    return app


def session_marks(database: Database) -> object:
    with database.read() as tx:
        return read.session_marks(tx)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    site: Site = app.state.site
    loop = asyncio.get_running_loop()
    # Called from a signal handler when Ctrl-C arrives, hence thread-safe.
    app.state.stop_live = lambda: loop.call_soon_threadsafe(site.hub.stop)
    with site.database:
        # Open the reading engine now, not in two request threads at once (with no
        # database yet there is nothing to open: the list of sessions says so).
        with suppress(NapError):
            await to_thread.run_sync(session_marks, site.database)  # no session scored
        yield
        await site.hub.close()
