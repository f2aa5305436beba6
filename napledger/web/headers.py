"""The security headers every response carries, refusals and streams included."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
