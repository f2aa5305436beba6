"""Keys per session, the organiser's key, and wrong keys slowed per address
(README, "Organiser's link" and "Choices made")."""

from __future__ import annotations

import asyncio
import logging

import pytest
from fastapi.testclient import TestClient

from napledger.web.app import create_app
from napledger.web.keys import (
    FREE_TRIES,
    LONGEST_DELAY,
    QUEUED,
    TooManyTries,
    WrongKeys,
    organiser_key,
    session_key,
)
from tests.web.conftest import SECRET, keeper_key


def pass_(client: TestClient, session: int, key: str) -> int:
    return client.post(f"/s/{session}/pass", data={"key": key}, follow_redirects=False).status_code


def test_a_sessions_key_writes_that_session_only(client, nap):
    nap("new fri --players Ann,Ben,Cat")
    nap("new sat --players Dan,Eve,Fay")
    assert pass_(client, 1, keeper_key(2)) == 403
    assert client.get(f"/s/1/keep?key={keeper_key(2)}").status_code == 403
    assert nap.json("hands --json --session fri") == []
    assert pass_(client, 2, keeper_key(2)) == 303
    assert len(nap.json("hands --json --session sat")) == 1
    # Neither the server's secret nor the organiser's key writes a session.
    assert pass_(client, 1, SECRET) == 403
    assert pass_(client, 1, organiser_key(SECRET)) == 403
    assert nap.json("hands --json --session fri") == []


def test_keys_are_made_from_the_secret_so_a_restart_with_it_keeps_the_links():
    assert session_key("our-table-secret", 1) == session_key("our-table-secret", 1)
    keys = {session_key("our-table-secret", n) for n in range(1, 50)}
    keys |= {session_key("another-secret", 1), organiser_key("our-table-secret")}
    assert len(keys) == 51  # one per session, per secret, and the organiser's apart


def test_the_organisers_link_lists_each_sessions_keeper_link(client, nap):
    nap("new fri --players Ann,Ben,Cat")
    nap("new sat --players Dan,Eve,Fay")
    page = client.get("/", params={"key": organiser_key(SECRET)})
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-store"  # it holds every session's key
    for session in (1, 2):
        assert f'href="/s/{session}/keep?key={keeper_key(session)}"' in page.text
    viewers = client.get("/").text  # without the key: the list, and no key in it
    assert "/keep" not in viewers and "fri" in viewers
    wrong = client.get("/", params={"key": keeper_key(1)})
    assert wrong.status_code == 403 and "/keep" not in wrong.text


class Slept:
    """Stands in for asyncio.sleep: records each wait instead of taking it."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def test_after_a_few_wrong_keys_each_further_one_waits_longer():
    slept = Slept()
    keys = WrongKeys(clock=lambda: 100.0, sleep=slept)

    async def tries(n: int) -> list[bool]:
        return [await keys.check("10.0.0.7", f"guess{i}", "right") for i in range(n)]

    assert asyncio.run(tries(FREE_TRIES + 6)) == [False] * (FREE_TRIES + 6)
    # The free tries wait not at all; then each waits its turn behind the last.
    assert slept.waits == [0.5, 1.5, 3.5, 7.5, 15.5, 23.5]
    assert max(b - a for a, b in zip(slept.waits, slept.waits[1:], strict=False)) == LONGEST_DELAY


def test_a_right_key_is_never_slowed_by_wrong_ones_from_anywhere():
    slept = Slept()
    keys = WrongKeys(clock=lambda: 100.0, sleep=slept)

    async def run() -> bool:
        for i in range(30):
            await keys.check("10.0.0.7", f"guess{i}", "right")
        before = len(slept.waits)
        counted = (keys.addresses["10.0.0.7"].count, list(keys.addresses))
        right = await keys.check("10.0.0.7", "right", "right")
        assert len(slept.waits) == before  # answered without a wait
        # ...and touching nothing the wrong ones keep: its cost does not grow with them.
        assert (keys.addresses["10.0.0.7"].count, list(keys.addresses)) == counted
        return right and await keys.check("10.0.0.8", "right", "right")

    assert asyncio.run(run())
    assert len(slept.waits) == 30 - FREE_TRIES


class Held:
    """Stands in for asyncio.sleep: each wait is told, then held until it is cancelled."""

    def __init__(self) -> None:
        self.told: asyncio.Queue[float] = asyncio.Queue()

    async def __call__(self, seconds: float) -> None:
        self.told.put_nowait(seconds)
        await asyncio.Event().wait()  # never set: a turn that does not come


def test_more_than_a_few_wrong_ones_waiting_from_one_address_are_refused_not_the_right_one():
    async def run() -> list[object]:
        held = Held()
        keys = WrongKeys(clock=lambda: 100.0, sleep=held)
        for i in range(FREE_TRIES):
            await keys.check("10.0.0.7", f"guess{i}", "right")
        waiting = [
            asyncio.ensure_future(keys.check("10.0.0.7", "guess", "right")) for _ in range(QUEUED)
        ]
        for _ in waiting:  # the four are now waiting their turns
            await held.told.get()
        with pytest.raises(TooManyTries):
            await keys.check("10.0.0.7", "guess", "right")
        # The keeper behind the same address (a laptop, a club's NAT) is let in at once.
        assert await keys.check("10.0.0.7", "right", "right") is True
        other = await keys.check("10.0.0.8", "right", "right")  # another phone: untouched
        for future in waiting:
            future.cancel()
        cancelled = await asyncio.gather(*waiting, return_exceptions=True)
        assert keys.addresses["10.0.0.7"].waiting == 0  # a dropped request leaves no place held
        return [other, *cancelled]

    other, *cancelled = asyncio.run(run())
    assert other is True
    assert all(isinstance(c, asyncio.CancelledError) for c in cancelled)


def test_wrong_keys_are_logged_at_5_50_and_500_and_forgotten_after_a_quiet_while(caplog):
    now = [0.0]
    keys = WrongKeys(clock=lambda: now[0], sleep=Slept())

    async def tries(n: int) -> None:
        for _ in range(n):
            await keys.check("10.0.0.7", "guess", "right")

    with caplog.at_level(logging.WARNING, logger="uvicorn.error"):
        asyncio.run(tries(500))
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "5 wrong keys from 10.0.0.7; its further tries are slowed",
        "50 wrong keys from 10.0.0.7",
        "500 wrong keys from 10.0.0.7",
    ]
    now[0] = 3600.0  # an hour later the address starts afresh
    asyncio.run(tries(1))
    assert keys.addresses["10.0.0.7"].count == 1


def test_the_page_slows_wrong_keys_and_says_too_many(nap):
    nap("new fri --players Ann,Ben,Cat")
    slept = Slept()
    app = create_app(None, SECRET, wrong_keys=WrongKeys(sleep=slept))
    with TestClient(app, raise_server_exceptions=False) as client:
        for _ in range(FREE_TRIES):
            assert pass_(client, 1, "guess") == 403
        assert slept.waits == []
        assert pass_(client, 1, "guess") == 403
        assert len(slept.waits) == 1 and slept.waits[0] > 0
        assert pass_(client, 1, keeper_key(1)) == 303  # the keeper, from the same address
        assert len(slept.waits) == 1
    assert len(nap.json("hands --json")) == 1


def test_the_success_line_survives_a_restart_with_the_same_secret(nap):
    from tests.web.test_keeper_writes import said_line

    nap("new fri --players Ann,Ben,Cat")
    with TestClient(create_app(None, SECRET)) as first:
        target = first.post(
            "/s/1/pass", data={"key": keeper_key(1)}, follow_redirects=False
        ).headers["location"]
    with TestClient(create_app(None, SECRET)) as restarted:
        assert said_line(restarted.get(target).text) == "Deal 1 recorded (passed out)."
