"""Which language a request is answered in: the session's own, if it keeps one (`new --lang`),
else what the browser asks for (`Accept-Language`), else English.

A pure ASGI middleware speaks it around the whole request (`words.speaking`), so every
template, message and number of that request is in it, streams included."""

from __future__ import annotations

import re
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from napledger.core.words import LANGUAGES, speaking

SESSION_PATH = re.compile(r"^/s/(\d{1,18})(?:/|$)")


def from_browser(header: str | None) -> str:
    """The language of `Accept-Language` napledger speaks with the highest q (ties: the
    first named); `ru-RU` is ru; none it speaks: English."""
    best, best_q = "en", 0.0
    for part in (header or "").split(",")[:32]:  # a browser names a few: more is noise
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().partition("-")[0]
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if code in LANGUAGES and q > best_q:
            best, best_q = code, q
    return best


def query_language(query: bytes) -> str | None:
    """`?lang=ru`: how a live page asks for its fragments in the language it was shown in."""
    for pair in query.decode("latin-1").split("&"):
        name, _, value = pair.partition("=")
        if name == "lang" and value in LANGUAGES:
            return value
    return None


class Speaking:
    """Answers each request in its language (`kept(session)`: a session's own, or None)."""

    def __init__(self, app: ASGIApp, kept: Callable[[int], str | None]) -> None:
        self.app = app
        self.kept = kept

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with speaking(self.language(scope)):
            await self.app(scope, receive, send)

    def language(self, scope: Scope) -> str:
        matched = SESSION_PATH.match(scope.get("path", ""))
        if matched:
            own = self.kept(int(matched.group(1)))
            if own in LANGUAGES:
                return own
        asked = query_language(scope.get("query_string", b""))
        if asked:
            return asked
        headers = dict(scope.get("headers", []))
        return from_browser(headers.get(b"accept-language", b"").decode("latin-1"))
