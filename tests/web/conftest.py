"""A test client over the web app, and a real server on 127.0.0.1 for streams and browsers."""

from __future__ import annotations

import gc
import os
import socket
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from napledger.core.read.page import Board
from napledger.service import page
from napledger.service.api import Database
from napledger.service.kept import KeptHistory
from napledger.web.app import create_app
from napledger.web.keys import session_key

CHROMIUM = Path("/usr/bin/chromium")  # Debian's; Playwright never downloads one here
SECRET = "test-secret-key"  # the server's; each session's key is made from it


def keeper_key(session: int) -> str:
    return session_key(SECRET, session)


KEY = keeper_key(1)  # the scorekeeper's key of the first session, the one most tests keep


def board(database: Database, session: int, kept: KeptHistory | None = None) -> Board:
    """The session's page as the server reads it (with `kept`: a live page's history)."""
    with database.read() as tx:
        return page.board(tx.session(str(session)), kept)


HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(autouse=True)
def quiet_log_forgets() -> None:
    """The once-a-minute log filter a server installs remembers what it wrote: each test
    starts as a fresh server's log would, whatever an earlier test's server wrote."""
    import logging

    from napledger.web.quiet import OncePerMinute

    for found in logging.getLogger("uvicorn.error").filters:
        if isinstance(found, OncePerMinute):
            found.kinds.clear()


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None, SECRET), raise_server_exceptions=False) as c:
        yield c


@dataclass
class Server:
    url: str
    key: str = KEY

    def keeper(self, session: int) -> str:
        return f"{self.url}/s/{session}/keep?key={keeper_key(session)}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


Running = tuple[uvicorn.Server, threading.Thread, FastAPI]


class Told(uvicorn.Server):
    """uvicorn's server, telling when it has started listening (or has given up)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.ready.set()

    def run(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            super().run(sockets)
        finally:
            self.ready.set()  # a server that could not start says so too


def serving(port: int) -> Running:
    """uvicorn serving the app in a thread on `port` of 127.0.0.1 only, until `stop`."""
    app = create_app(None, SECRET)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    server = Told(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    server.ready.wait(10)
    assert server.started, "the server did not start"
    return server, thread, app


def stop(running: Running) -> None:
    server, thread, app = running
    app.state.stop_live()  # as Ctrl-C does: open streams end, the server stops at once
    server.should_exit = True
    thread.join(10)
    # A connection still open as uvicorn stops (a browser's keep-alive) is left to the
    # garbage collector, which warned of its socket in whichever test ran next, at random.
    # It is collected here, with the server it belonged to.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium, started for each test module that drives it; each test opens its
    own context (cookies, storage, viewport) and closes it. Not once a worker: while
    Playwright's sync API is open it keeps its event loop in the thread, and every later
    test's `asyncio.run` would refuse to start."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield launched
        launched.close()


@pytest.fixture
def live_server() -> Iterator[Server]:
    port = free_port()
    running = serving(port)
    yield Server(f"http://127.0.0.1:{port}")
    stop(running)


SMALL_PHONE = {"width": 360, "height": 740}


def watched(tab):
    """`tab`, its script errors and console errors collected in `tab.problems`."""
    tab.problems = []
    tab.on("console", lambda m: m.type == "error" and tab.problems.append(m.text))
    tab.on("pageerror", lambda e: tab.problems.append(str(e)))
    return tab


@pytest.fixture
def phone(browser) -> Iterator[object]:
    """A tab of its own on a small phone (360×740) that takes downloads."""
    context = browser.new_context(viewport=SMALL_PHONE, accept_downloads=True)
    yield watched(context.new_page())
    context.close()


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{width}px wide at {page.viewport_size}"


class Pictures:
    """Each step's screenshot as the phone shows it (the screen, not the whole page), as
    `{prefix}-{name}.png` in NAPLEDGER_SCREENSHOTS, else in `fallback`."""

    def __init__(self, page, prefix: str, fallback: Path) -> None:
        self.page = page
        self.prefix = prefix
        self.folder = Path(os.environ.get("NAPLEDGER_SCREENSHOTS") or fallback)
        self.folder.mkdir(parents=True, exist_ok=True)

    def shot(self, name: str, at: str | None = None) -> None:
        if at is not None:
            self.page.locator(at).first.scroll_into_view_if_needed()
            self.page.evaluate(
                "(s) => document.querySelector(s).scrollIntoView({block: 'start'})", at
            )
        no_sideways_scroll(self.page)
        self.page.screenshot(path=str(self.folder / f"{self.prefix}-{name}.png"))


def tap(page, legend: str, text: str) -> None:
    """Taps the button `text` in the keeper's deal form, under the heading `legend`."""
    page.locator("#deal fieldset", has_text=legend).get_by_text(text, exact=True).click()


def record(page, *taps: tuple[str, str], button: str = "Record deal") -> str:
    """Taps each (heading, button) of the deal form, then `button`; what the page said."""
    for legend, text in taps:
        tap(page, legend, text)
    with page.expect_navigation():
        page.get_by_role("button", name=button).click()
    return page.locator(".said, .error").first.inner_text()
