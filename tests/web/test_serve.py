"""`napledger serve` as a person starts and stops it: links printed, Ctrl-C stops cleanly."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import httpx2
import pytest

from napledger.allocator import malloc_trim
from napledger.store.db import resolve_url, secret_path
from napledger.web.keys import kept_secret, organiser_key, session_key
from napledger.web.serve import announce, links


def start(*args: str, restart: bool = False) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """The server started as a person would, and the links it printed, by their label.
    Started on the allocator it would start itself again on (napledger/allocator.py), which
    saves each test a second interpreter; `restart` lets it start itself again, as it does
    for a person."""
    env = dict(os.environ) if restart else {**os.environ, "PYTHONMALLOC": "malloc"}
    server = subprocess.Popen(
        [sys.executable, "-m", "napledger", "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert server.stdout is not None
    printed: dict[str, str] = {}
    for line in server.stdout:
        if line.startswith("Ctrl-C"):
            break
        printed[line.split()[0]] = line.split()[-1]
        printed["said"] = line  # the last: which links these are
    return server, printed


def test_serve_prints_the_links_serves_them_and_stops_cleanly_on_ctrl_c(nap):
    nap("new fri --players Ann,Ben,Cat")
    server, printed = start("--key", "our-table-secret", restart=True)
    viewers, keeper = printed["Viewers"], printed["Scorekeeper"]
    try:
        assert viewers.startswith("http://127.0.0.1:") and viewers.endswith("/s/1")
        key = session_key("our-table-secret", 1)
        assert keeper == viewers + "/keep?key=" + quote(key, safe="")
        assert printed["Organiser"] == viewers[: -len("s/1")] + "?key=" + quote(
            organiser_key("our-table-secret"), safe=""
        )
        assert httpx2.get(viewers, timeout=10).status_code == 200
        assert httpx2.get(keeper, timeout=10).status_code == 200
        assert httpx2.get(viewers + "/keep?key=guess", timeout=10).status_code == 403
        # The server's secret itself is no session's key.
        assert httpx2.get(viewers + "/keep?key=our-table-secret", timeout=10).status_code == 403
        if malloc_trim() is not None:  # it started itself again on the C library's allocator
            environ = Path(f"/proc/{server.pid}/environ").read_bytes().split(b"\0")
            assert b"PYTHONMALLOC=malloc" in environ
        live = httpx2.stream("GET", viewers + "/events", timeout=10)
        # An open live page must not hold the server up: its stream has begun (its first
        # line has come) when Ctrl-C is pressed.
        assert next(live.__enter__().iter_lines())
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=15)
    assert server.returncode == 0, err
    assert "Traceback" not in err
    assert "Server stopped." in err


def stopped(server: subprocess.Popen[str]) -> str:
    server.send_signal(signal.SIGINT)
    _, err = server.communicate(timeout=15)
    return err


def key_of(link: str) -> str:
    return link.rsplit("key=", 1)[1]


def same_port(before: dict[str, str], now: dict[str, str]) -> str:
    """The keeper's link given out before, at the port this start listens on (each start
    here takes a free one)."""
    return now["Viewers"] + "/keep?key=" + key_of(before["Scorekeeper"])


def test_the_secret_is_kept_with_the_ledger_and_new_secret_revokes_every_link(nap):
    """Started without --key, serve makes a secret and keeps it beside the ledger (its
    owner's only; a restart reusing it: test_keepers_phone.py); --new-secret makes
    another, and every link given out before is refused from then on."""
    nap("new fri --players Ann,Ben,Cat")
    kept = secret_path(resolve_url(None))
    server, first = start()
    try:
        assert first["New"]  # "New secret: these links work after a restart. …"
        assert len(key_of(first["Scorekeeper"])) >= 20
        assert httpx2.get(first["Scorekeeper"], timeout=10).status_code == 200
    finally:
        stopped(server)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # its owner's only
    assert kept_secret(kept)[1] is False  # found, not made again
    server, renewed = start("--new-secret")
    try:
        assert "every link given out before no longer works" in renewed["said"]
        assert key_of(renewed["Scorekeeper"]) != key_of(first["Scorekeeper"])
        assert httpx2.get(renewed["Scorekeeper"], timeout=10).status_code == 200
        assert httpx2.get(same_port(first, renewed), timeout=10).status_code == 403
    finally:
        stopped(server)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600


def test_a_kept_secret_others_could_read_is_made_private(tmp_path):
    path = tmp_path / "napledger.db.secret"
    secret, made = kept_secret(path)
    assert made and len(secret) >= 16
    path.chmod(0o644)
    assert kept_secret(path) == (secret, False)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_server_database_keeps_its_secret_in_the_user_data_folder():
    here = secret_path("postgresql://ann:hunter2@db.example/friday")
    assert here.name.endswith(".secret") and "hunter2" not in str(here)
    # the password is no part of which ledger it is; another database is another secret
    assert here == secret_path("postgresql://ann:changed@db.example/friday")
    assert here != secret_path("postgresql://ann:hunter2@db.example/saturday")
    assert secret_path("sqlite:////srv/nap/club.db") == Path("/srv/nap/club.db.secret")


def test_without_a_session_the_links_open_the_list(nap):
    server, printed = start()
    try:
        assert "Scorekeeper" not in printed  # no session yet has a key to print
        assert printed["Viewers"].endswith("/")
        assert printed["Organiser"].startswith(printed["Viewers"] + "?key=")
        assert "No sessions yet" in httpx2.get(printed["Viewers"], timeout=10).text
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=15)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--key", "short"], "Error: --key must be at least 8 characters"),
        (["--session", "nosuch"], "Error: no session 'nosuch'"),
        (["--key", "our-table-secret", "--new-secret"], "Error: --new-secret makes a secret"),
    ],
)
def test_a_bad_start_is_one_error_line(nap, args, message):
    nap("new fri --players Ann,Ben,Cat")
    assert nap.fails("serve " + " ".join(args)).startswith(message)


def test_a_port_in_use_is_one_error_line(nap):
    nap("new fri --players Ann,Ben,Cat")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = nap.fails(f"serve --port {port}")
    assert line.startswith(f"Error: cannot listen on 127.0.0.1:{port}")


def test_the_lan_announcement_has_a_qr_code_of_the_viewers_link(capsys):
    viewers, keeper, organiser = links("http://192.168.1.20:8421", 3, "our-table-secret")
    assert viewers == "http://192.168.1.20:8421/s/3"
    key = quote(session_key("our-table-secret", 3), safe="")
    assert keeper == f"http://192.168.1.20:8421/s/3/keep?key={key}"
    assert organiser == "http://192.168.1.20:8421/?key=" + quote(
        organiser_key("our-table-secret"), safe=""
    )
    announce(viewers, keeper, organiser, lan=True)
    out = capsys.readouterr().out
    assert viewers in out and keeper in out and organiser in out
    assert "Scan for the viewers' page" in out
    assert out.count("\n") > 15  # the code's rows
    announce(viewers, keeper, organiser, lan=False)
    assert "Scan" not in capsys.readouterr().out


class NoRoute:
    """A socket on a computer with no network: there is no route to find an address by."""

    def __init__(self, *args):
        pass

    def connect(self, address):
        raise OSError("Network is unreachable")

    def close(self):
        pass


def test_no_lan_address_is_one_error_line(nap, monkeypatch):
    def unknown(name):
        raise socket.gaierror(-2, "Name or service not known")

    monkeypatch.setattr(socket, "socket", NoRoute)
    monkeypatch.setattr(socket, "gethostbyname", unknown)
    nap("new fri --players Ann,Ben,Cat")
    line = nap.fails("serve --lan")
    assert line.startswith("Error: cannot find this computer's address on the local network")


def test_accepted_connections_send_at_once_without_nagle():
    """Each answer on a kept-alive connection goes out at once (TCP_NODELAY), not 40 ms later."""
    import asyncio

    from napledger.web.serve import listen

    async def accepted_nodelay() -> int:
        loop = asyncio.get_running_loop()
        seen: asyncio.Future[int] = loop.create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport):  # type: ignore[override]
                sock = transport.get_extra_info("socket")
                seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        sock = listen("127.0.0.1", 0)
        server = await loop.create_server(Probe, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection(*sock.getsockname())
            value = await asyncio.wait_for(seen, 5)
            writer.close()
        return value

    assert asyncio.run(accepted_nodelay()) != 0


def test_a_loopback_name_is_not_printed_as_the_phones_link(nap, monkeypatch):
    """Debian maps the hostname to 127.0.1.1: phones cannot reach it, so --lan says so."""

    monkeypatch.setattr(socket, "socket", NoRoute)
    monkeypatch.setattr(socket, "gethostbyname", lambda name: "127.0.1.1")
    nap("new fri --players Ann,Ben,Cat")
    line = nap.fails("serve --lan")
    assert line.startswith("Error: cannot find this computer's address on the local network")
    assert "127.0.1.1" in line and "--host ADDRESS" in line


def test_the_named_host_is_printed_listened_on_and_accepted(nap):
    nap("new fri --players Ann,Ben,Cat")
    server, printed = start("--host", "127.0.0.2")
    viewers = printed["Viewers"]
    try:
        assert viewers.startswith("http://127.0.0.2:")
        assert httpx2.get(viewers, timeout=10).status_code == 200  # the host check takes it
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=15)


def test_a_host_that_is_not_an_address_is_one_error_line(nap):
    nap("new fri --players Ann,Ben,Cat")
    assert nap.fails("serve --host table.local").startswith("Error: --host must be an IP address")


def test_serve_with_house_rules_says_so_and_offers_them_to_the_organiser(nap, tmp_path):
    from tests.web.test_house_rules import PUB

    rules = tmp_path / "pub.toml"
    rules.write_text(PUB, encoding="utf-8")
    server, printed = start("--rules", str(rules), "--key", "our-table-secret")
    try:
        assert printed["House"] == "pub"
        form = httpx2.get(
            printed["Viewers"] + "new",
            params={"key": organiser_key("our-table-secret"), "game": "pub"},
            timeout=10,
        ).text
        assert '<option value="pub" selected>' in form
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=15)
