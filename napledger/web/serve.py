"""Starting the server: the socket, the links, the QR code, and a clean Ctrl-C."""

from __future__ import annotations

import ipaddress
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from urllib.parse import quote

from napledger.allocator import serve_on_malloc
from napledger.core.errors import NapError
from napledger.core.reasons import os_reason
from napledger.core.words import _, speaking
from napledger.web.bounded import backlog, bounded_protocol, raise_file_limit
from napledger.web.keys import kept_secret, organiser_key, session_key

DEFAULT_PORT = 8421


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent to find it).

    A loopback address is never the answer: phones cannot reach it, and printing it (with a
    QR code) would send the table to a page that is not there.
    """
    found = _routed_address() or _named_address()
    if found is None or ipaddress.ip_address(found).is_loopback:
        raise NapError(
            _(
                "cannot find this computer's address on the local network (phones cannot "
                "reach {address}); join a network, or name the address with --host ADDRESS"
            ).format(address=found or "127.0.0.1")
        )
    return found


def _routed_address() -> str | None:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:  # no route: no network
        return None
    finally:
        probe.close()


def _named_address() -> str | None:
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:  # socket.gaierror: no name for this machine
        return None


def listen(host: str, port: int) -> socket.socket:
    # Named as TCP (not protocol 0) so asyncio sets TCP_NODELAY on every accepted socket:
    # without it each answer on a kept-alive connection waits ~40 ms for Nagle.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise NapError(
            _("cannot listen on {host}:{port}: {reason}").format(
                host=host, port=port, reason=os_reason(error)
            )
        ) from None
    sock.listen(backlog())
    return sock


def links(base: str, session: int | None, secret: str) -> tuple[str, str | None, str]:
    """The viewers' link, the session's scorekeeper link (which carries its key; none
    without a session) and the organiser's link (the sessions, each with its keeper link)."""
    organiser = f"{base}/?key={quote(organiser_key(secret), safe='')}"
    if session is None:
        return f"{base}/", None, organiser
    keeper = f"{base}/s/{session}/keep?key={quote(session_key(secret, session), safe='')}"
    return f"{base}/s/{session}", keeper, organiser


def announce(
    viewers: str,
    keeper: str | None,
    organiser: str,
    lan: bool,
    house: Sequence[str] = (),
    kept: str | None = None,
) -> None:
    """The links (the viewers' first: scripts read it from the first line), then
    `kept`: which links these are, the ones given out before or new ones."""
    labels = {
        "viewers": _("Viewers (read-only):"),
        "keeper": _("Scorekeeper (secret):"),
        "organiser": _("Organiser (secret):"),
        "house": _("House rules:"),
    }
    width = max(len(label) for label in labels.values()) + 1  # the links in one column
    print(labels["viewers"].ljust(width), viewers)
    if keeper is not None:
        print(labels["keeper"].ljust(width), keeper)
    print(labels["organiser"].ljust(width), organiser)
    if house:  # what the organiser's form offers beside the presets
        print(labels["house"].ljust(width), ", ".join(house))
    if lan:
        import segno

        # The table scans this rather than typing an address on a phone.
        print(_("Scan for the viewers' page:"))
        segno.make(viewers, error="m").terminal(out=sys.stdout, compact=True)
    if kept is not None:
        print(kept)
    print(_("Ctrl-C stops the server."), flush=True)


def keep_secret(path: Path, renew: bool) -> tuple[str, bool]:
    try:
        return kept_secret(path, renew)
    except OSError as error:
        raise NapError(
            _("cannot keep the server's secret in {path}: {reason}").format(
                path=path, reason=os_reason(error)
            )
        ) from None


def secret_said(made: bool | None, path: Path, renewed: bool) -> str:
    """Which links these are: the organiser must know whether the ones given out before
    still work (the QR code on the table, the keeper's phone)."""
    if made is None:
        return _("The links are made from --key: the same key gives the same links.")
    if renewed:
        said = _("New secret: every link given out before no longer works.")
    elif made:
        said = _("New secret: these links work after a restart.")
    else:
        said = _("The links given out before still work.")
    return said + " " + _("The secret is kept in {path}.").format(path=path)


def serve(
    db: str | None,
    session: str | None,
    lan: bool,
    port: int,
    key: str | None,
    host: str | None = None,
    rule_files: Sequence[str] = (),
    new_secret: bool = False,
) -> None:
    serve_on_malloc()  # first: a server that gives a flood's memory back (napledger.allocator)
    import uvicorn

    from napledger.core.read.games import house_rules
    from napledger.service.api import Database
    from napledger.store.db import resolve_url, secret_path
    from napledger.web.app import create_app
    from napledger.web.streams import session_id

    raise_file_limit()  # before the bounds are worked out from it
    # Read now, before anything listens: a bad file is one Error: line, not a broken form.
    house = house_rules(rule_files)
    if key is not None and len(key) < 8:
        raise NapError(_("--key must be at least 8 characters: it is all that guards the ledger"))
    if key is not None and new_secret:
        raise NapError(_("--new-secret makes a secret: it cannot be used with --key"))
    kept_at = secret_path(resolve_url(db))  # nothing opened: only where the ledger is
    try:
        with Database(db) as database:
            sid: int | None = session_id(database, session)
    except NapError:
        if session is not None:
            raise
        sid = None  # no session yet: the links open the list of sessions
    if key is None:
        key, made = keep_secret(kept_at, new_secret)
    else:
        made = None
    if host is not None:  # the address the person named: listened on and printed as it is
        try:
            shown, lan = host, not ipaddress.ip_address(host).is_loopback
        except ValueError:
            raise NapError(
                _("--host must be an IP address of this computer, not '{host}'").format(host=host)
            ) from None
    else:
        host = "0.0.0.0" if lan else "127.0.0.1"
        shown = lan_address() if lan else "127.0.0.1"
    sock = listen(host, port)
    viewers, keeper, organiser = links(f"http://{shown}:{sock.getsockname()[1]}", sid, key)
    announce(viewers, keeper, organiser, lan, list(house), secret_said(made, kept_at, new_secret))
    # Only our own names are answered: a site rebinding its name to this address (DNS
    # rebinding) cannot read the pages through the visitor's browser.
    app = create_app(db, key, hosts=("127.0.0.1", "localhost", shown), house=house)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            # Open live pages would otherwise hold the server until its timeout.
            stop_live = getattr(app.state, "stop_live", None)
            if stop_live is not None:
                stop_live()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app,
        http=bounded_protocol(),  # slow or too many connections cannot lock the table out
        backlog=backlog(),
        log_level="warning",
        access_log=False,  # the scorekeeper's link would be written to the log
        timeout_graceful_shutdown=1,  # open live pages must not hold up Ctrl-C
    )
    try:
        # The page speaks as each request asks (words.speaking); where none does, English,
        # not the language this terminal speaks, which the lines printed here keep.
        with speaking("en"):
            Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print(_("Server stopped."), file=sys.stderr)
