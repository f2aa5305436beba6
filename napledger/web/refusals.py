"""How the server answers what it cannot do: a page in the table's language, never a
traceback."""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException

from napledger.core import words
from napledger.core.errors import NapError
from napledger.core.words import N_, _
from napledger.web.headers import HEADERS
from napledger.web.pages import page

# Starlette's own refusals, translated where shown (`http_error`).
STARLETTE_WORDS = (N_("Not Found"), N_("Method Not Allowed"))


async def cannot_show(request: Request, error: Exception) -> Response:
    # Mostly a session that is not there; the message says what it was.
    return page(request, "message.html", 404, title=_("Cannot show that"), message=str(error))


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
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


async def unreadable(request: Request, _error: Exception) -> Response:
    # A hand-made address or form (a session that is not a number, a huge field).
    return page(
        request,
        "message.html",
        400,
        title=_("Cannot do that"),
        message=_("that request makes no sense here"),
    )


async def server_error(_request: Request, _error: Exception) -> Response:
    # A bug: the browser learns only that it happened, never a traceback.
    return HTMLResponse(
        f"<!doctype html><html lang={words.language()}><title>{_('Error')}</title><p>"
        + _("Something went wrong on the server; nothing was changed. Reload to try again.")
        + "</p>",
        status_code=500,
        # Starlette sends this outside every middleware, SecurityHeaders included.
        headers={name.decode(): value.decode() for name, value in HEADERS},
    )


def answer_refusals(app: FastAPI) -> None:
    app.add_exception_handler(NapError, cannot_show)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, unreadable)
    app.add_exception_handler(Exception, server_error)
