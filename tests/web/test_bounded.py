"""The server's bounds: a slow request is closed, and too many connections make room."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
import uvicorn

from napledger.web.bounded import bounded_protocol
from napledger.web.serve import listen


async def hello(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hello"})


@pytest.fixture
def server(request) -> Iterator[tuple[str, int]]:
    cap, seconds = request.param
    sock = listen("127.0.0.1", 0)
    config = uvicorn.Config(hello, http=bounded_protocol(cap, seconds), log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not running.started:
        threading.Event().wait(0.01)
    yield sock.getsockname()
    running.should_exit = True
    thread.join(10)
    sock.close()


def closed_by_server(conn: socket.socket) -> bool:
    conn.settimeout(10)
    try:
        return conn.recv(100) == b""
    except ConnectionResetError:
        return True


def get(address: tuple[str, int]) -> bytes:
    with socket.create_connection(address, timeout=10) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return b"".join(iter(lambda: conn.recv(4096), b""))


@pytest.mark.parametrize("server", [(100, 0.3)], indirect=True)
def test_a_request_that_trickles_in_is_closed(server):
    with socket.create_connection(server) as slow:
        slow.sendall(b"GET / HT")  # and never the rest
        assert closed_by_server(slow)
    assert b"hello" in get(server)


@pytest.mark.parametrize("server", [(3, 60.0)], indirect=True)
def test_past_the_cap_the_oldest_unfinished_connection_makes_room(server):
    idle = [socket.create_connection(server) for _ in range(3)]
    try:
        idle[0].sendall(b"G")
        answer = get(server)  # the 4th connection: answered, not refused
        assert answer.startswith(b"HTTP/1.1 200") and b"hello" in answer
        assert closed_by_server(idle[0])
    finally:
        for conn in idle:
            conn.close()


@pytest.mark.parametrize("server", [(100, 60.0)], indirect=True)
def test_garbage_is_refused_with_the_security_headers_and_logged_once_a_minute(server, caplog):
    for _ in range(20):
        with socket.create_connection(server, timeout=10) as conn:
            conn.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
            answer = b"".join(iter(lambda c=conn: c.recv(4096), b""))
        assert answer.startswith(b"HTTP/1.1 400")
        assert b"content-security-policy: default-src 'none'" in answer.lower()
        assert b"x-frame-options: DENY" in answer
    said = [r.getMessage() for r in caplog.records if "Invalid HTTP" in r.getMessage()]
    assert len(said) == 1  # not 20


def test_a_kind_of_warning_is_written_once_a_minute_then_with_how_many_were_left_out():
    import logging

    from napledger.web.quiet import OncePerMinute

    now = [0.0]
    quiet = OncePerMinute(clock=lambda: now[0])

    def passes(message: str, *args: object) -> str | None:
        record = logging.LogRecord("uvicorn.error", logging.WARNING, "", 0, message, args, None)
        return record.getMessage() if quiet.filter(record) else None

    assert passes("Invalid HTTP request received.") == "Invalid HTTP request received."
    assert [passes("Invalid HTTP request received.") for _ in range(3)] == [None] * 3
    assert passes("%d wrong keys from %s", 5, "10.0.0.7") == "5 wrong keys from 10.0.0.7"
    now[0] = 61.0
    assert passes("Invalid HTTP request received.") == (
        "Invalid HTTP request received. (and 3 more like it since the last)"
    )
