"""Who may do what: the keys as FastAPI dependencies, and writes only from this server's page.

A route that needs a key names one of these in its signature; a wrong key is refused
(403) before the route runs, and slowed (`napledger.web.keys.WrongKeys`).
"""

from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Form, Query, Request
from starlette.exceptions import HTTPException

from napledger.core.words import N_
from napledger.web.keys import TooManyTries, organiser_key, session_key
from napledger.web.site import OnSite, Site


async def check_key(
    site: Site, request: Request, given: str | None, expected: str, refusal: str
) -> None:
    address = request.client.host if request.client else "unknown"
    try:
        right = await site.wrong_keys.check(address, given, expected)
    except TooManyTries:
        raise HTTPException(
            429, N_("too many wrong keys from this address: wait a minute, then use the link")
        ) from None
    if not right:
        raise HTTPException(403, refusal)


def refuse_cross_site(request: Request) -> None:
    """A write must come from this server's own page: no other site can post one."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise HTTPException(403, N_("cross-site requests cannot change the ledger"))
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
        raise HTTPException(403, N_("cross-site requests cannot change the ledger"))


async def keeper_page(
    request: Request, site: OnSite, session: int, key: Annotated[str | None, Query()] = None
) -> str:
    """The session's own key, from its scorekeeper link: no other session's."""
    refusal = N_("this link cannot change the ledger; ask for the scorekeeper's link")
    await check_key(site, request, key, session_key(site.secret, session), refusal)
    assert key is not None
    return key


async def keeper_write(
    request: Request, site: OnSite, session: int, key: Annotated[str, Form(max_length=200)] = ""
) -> str:
    """Every write's check: from this server's page, with the session's own key."""
    # The origin first: another site's post is refused whatever key it carries.
    refuse_cross_site(request)
    refusal = N_("only the scorekeeper's link can change the ledger")
    await check_key(site, request, key, session_key(site.secret, session), refusal)
    return key


async def organiser(
    request: Request, site: OnSite, key: Annotated[str | None, Query()] = None
) -> bool:
    """Whether the organiser's key came; no key at all is a viewer, not a wrong try."""
    if key is None:
        return False
    refusal = N_("this link is not the organiser's; the list of sessions is at /")
    await check_key(site, request, key, organiser_key(site.secret), refusal)
    return True


STARTING = N_("starting a session needs the organiser's link, printed by serve")


async def organiser_only(
    request: Request, site: OnSite, key: Annotated[str | None, Query()] = None
) -> str:
    await check_key(site, request, key, organiser_key(site.secret), STARTING)
    assert key is not None
    return key


KeeperPage = Annotated[str, Depends(keeper_page)]
Keeper = Annotated[str, Depends(keeper_write)]
Organising = Annotated[bool, Depends(organiser)]
Organiser = Annotated[str, Depends(organiser_only)]
