"""Only the forms the page sends reach the app: small, url-encoded, their length declared.

Starlette spools a multipart upload to a temporary file while parsing it, before any route
can check the key, so a keyless guest could fill the disk the database lives on. The pages
post only url-encoded forms of a few hundred bytes, so anything else is refused here, from
the headers alone, before one byte of the body is read.
"""

from __future__ import annotations

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

MAX_FORM_BYTES = 16 * 1024  # a deal's form is a few hundred bytes; names are capped far below
FORM_TYPE = "application/x-www-form-urlencoded"
BODILESS = frozenset({"GET", "HEAD", "OPTIONS"})


class FormsOnly:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = refuse(scope)
            if refusal is not None:
                status, text = refusal
                await PlainTextResponse(text, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def refuse(scope: Scope) -> tuple[int, str] | None:
    """Why a request's headers already rule it out, or None."""
    headers = {name.lower(): value for name, value in scope["headers"]}
    length = headers.get(b"content-length")
    if scope["method"] in BODILESS:
        if length not in (None, b"0") or b"transfer-encoding" in headers:
            return 400, "This request must not have a body."
        return None
    if length is None or b"transfer-encoding" in headers:
        return 411, "A form must say its length."
    if not length.isdigit() or int(length) > MAX_FORM_BYTES:
        return 413, "That form is too large."
    kind = headers.get(b"content-type", b"").split(b";", 1)[0].strip().decode("latin-1")
    if int(length) and kind.lower() != FORM_TYPE:
        return 415, "Only the page's own forms are accepted."
    return None
