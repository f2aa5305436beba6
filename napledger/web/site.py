"""What every route of one server shares: its database, secret, house rules, templates,
the live pages' hub, and the kept histories and languages of the sessions being shown.

Made once by `create_app` and held on the app; routes take it (or its database) as a
FastAPI dependency (`OnSite`, `DB`)."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated

from anyio import CapacityLimiter
from fastapi import Depends, Request
from fastapi.templating import Jinja2Templates

from napledger.core.errors import NapError
from napledger.core.rules import Rules
from napledger.service.api import Database
from napledger.service.kept import KeptHistory
from napledger.web.bounded import connection_cap
from napledger.web.crowd import Crowd
from napledger.web.keys import WrongKeys
from napledger.web.live import Hub

STREAM_STARTS = 2


@dataclass
class Site:
    database: Database  # one for the server's life: its engines are kept, not reopened
    secret: str  # what every key is derived from (`napledger.web.keys`)
    house: Mapping[str, Rules]  # the house-rule files serve was given, by game name
    wrong_keys: WrongKeys
    templates: Jinja2Templates
    hub: Hub
    crowd: Crowd = field(default_factory=lambda: Crowd(connection_cap()))
    languages: dict[int, str | None] = field(default_factory=dict)
    # `/s/N/json` as last written, and the session's mark (`last_change`) it was written at.
    documents: dict[int, tuple[tuple[object, ...], bytes]] = field(default_factory=dict)
    # The worker threads a stream's start may take at once (its session looked up): a
    # flood of streams queues here instead of taking every worker from the keeper's page,
    # and leaves no thread pool and database connections behind, grown for it.
    stream_starts: CapacityLimiter = field(default_factory=lambda: CapacityLimiter(STREAM_STARTS))

    def __post_init__(self) -> None:
        # The pages' own histories, not a watcher's: each keeps what it rendered
        # consistent. The few sessions being played are kept; another is read afresh.
        self.kept_for = lru_cache(maxsize=8)(lambda _session: KeptHistory())

    def kept_language(self, session: int) -> str | None:
        """The language a session keeps (`new --lang`), read once: it never changes."""
        if session not in self.languages:
            try:
                with self.database.read() as tx:
                    self.languages[session] = tx.session(str(session)).info.language
            except NapError:  # no such session (yet): its 404 is in the browser's language
                return None
            if len(self.languages) > 1000:  # a server up for years: forget, read again
                self.languages.clear()
        return self.languages.get(session)


def on_site(request: Request) -> Site:
    site: Site = request.app.state.site
    return site


# The dependencies are async: reading the app's state needs no worker thread (FastAPI runs
# a plain `def` dependency in one), so no request, a wrong key's included, takes a worker
# before its key is checked.
async def site_of(request: Request) -> Site:
    return on_site(request)


async def opened(request: Request) -> Database:
    """The server's one database, opened at start: what every route reads and writes."""
    return on_site(request).database


OnSite = Annotated[Site, Depends(site_of)]
DB = Annotated[Database, Depends(opened)]
