"""The success line a write redirects with, signed so the page shows only what this
server said (no link can carry other text), and good across a restart with one secret."""

import hashlib
import hmac
from urllib.parse import urlencode

from fastapi.responses import RedirectResponse, Response

from napledger.web.keys import derive


def signature(secret: str, session: int, said: str) -> str:
    text = f"{session}\n{said}".encode()
    return hmac.new(derive(secret, "said").encode(), text, hashlib.sha256).hexdigest()


def said_here(secret: str, session: int, said: str | None, sig: str | None) -> bool:
    """Whether `said` is a message this server made for this session (any other text
    in a link is never shown as the success line)."""
    if said is None or sig is None or not sig.isascii():
        return False
    return hmac.compare_digest(sig.encode(), signature(secret, session, said).encode())


def told(secret: str, session: int, key: str, said: str) -> Response:
    """Back to the keeper's page after a write, with what was done."""
    target = f"/s/{session}/keep?" + urlencode(
        {"key": key, "said": said, "sig": signature(secret, session, said)}
    )
    return RedirectResponse(target, status_code=303)
