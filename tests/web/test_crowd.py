"""Streams cannot crowd out the table (#37): bounded in all and per address, each with a
lifetime, a refused or expired one told when to come back (the page reconnects itself)."""

from __future__ import annotations

import pytest

from napledger.web.app import create_app
from napledger.web.crowd import CROWDED_RETRY_MS, RETRY_MS, Crowd, Crowded
from tests.web.conftest import SECRET


def test_streams_are_bounded_in_all_and_per_address_leaving_half_the_connections():
    crowd = Crowd(connections=16)
    assert (crowd.total, crowd.per_address) == (8, 4)
    for _ in range(4):
        crowd.admit("10.0.0.7")
    with pytest.raises(Crowded):
        crowd.admit("10.0.0.7")  # that address has its share
    for _ in range(4):
        crowd.admit("10.0.0.8")
    with pytest.raises(Crowded):
        crowd.admit("10.0.0.9")  # all the streams there may be
    crowd.leave("10.0.0.7")
    crowd.admit("10.0.0.9")
    assert crowd.count == 8


@pytest.fixture
def crowded_client(nap):
    from fastapi.testclient import TestClient

    nap("new fri --players Ann,Ben,Cat")
    app = create_app(None, SECRET)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client, app.state.site


def lines(client, path: str) -> list[str]:
    with client.stream("GET", path) as answer:
        assert answer.status_code == 200
        return list(answer.iter_lines())


def test_a_stream_past_the_bound_is_told_to_come_back_later(crowded_client):
    client, site = crowded_client
    site.crowd = Crowd(connections=4)
    site.crowd.admit("testclient")
    site.crowd.admit("testclient")  # the address's share, held by two open pages
    for path in ("/s/1/events", "/events"):
        said = lines(client, path)
        assert f"retry: {CROWDED_RETRY_MS}" in said
        assert not any(line.startswith("data:") for line in said)  # no board: nothing held


def test_a_stream_ends_when_its_lifetime_is_over_and_the_page_comes_back(crowded_client):
    client, site = crowded_client
    site.crowd = Crowd(connections=100, lifetime=0.05)
    for path in ("/s/1/events", "/events"):
        said = lines(client, path)  # ends by itself: the lifetime, not a change
        assert f"retry: {RETRY_MS}" in said
        assert sum(line.startswith("data:") for line in said) == 1
    assert site.crowd.count == 0  # each place given back


def test_when_streams_close_the_server_holds_nothing_of_them(nap):
    """After a crowd of streams has gone, no place, watcher or event of theirs is kept:
    the memory a flood took can all be handed back (bench_serve --attacks measures it)."""
    import asyncio
    import gc
    import weakref

    from starlette.requests import Request

    from napledger.web.streams import SESSIONS, follow

    nap("new fri --players Ann,Ben,Cat")
    site = create_app(None, SECRET).state.site

    def request(address: str) -> Request:
        return Request({"type": "http", "client": (address, 1), "headers": []})

    async def scenario() -> list[weakref.ref]:
        pages = [
            follow(request(f"10.0.0.{n % 3}"), site, watched, None)
            for n in range(12)
            for watched in (1, SESSIONS)
        ]
        for page in pages:
            assert "html" in (await anext(page)).data
        watches = list(site.hub.watches.values())
        assert len(watches) == 2 and site.crowd.count == 24
        assert sum(w.listeners for w in watches) == 24
        kept = [weakref.ref(o) for w in watches for o in (w, w.changed, w.wake)]
        tasks = [w.task for w in watches]
        for page in pages:
            await page.aclose()  # as when a page is closed: the stream's generator ends
        await asyncio.gather(*tasks, return_exceptions=True)  # each watcher, cancelled
        assert all(task.cancelled() for task in tasks)
        assert site.hub.watches == {}
        assert site.crowd.count == 0 and not site.crowd.open
        await site.hub.close()
        return kept

    with site.database:
        kept = asyncio.run(scenario())
    gc.collect()
    assert [ref() for ref in kept] == [None] * len(kept)


def test_a_floods_memory_is_handed_back_once_when_its_streams_have_gone():
    from napledger.web.crowd import FLOOD

    trimmed: list[int] = []
    crowd = Crowd(connections=4 * FLOOD, trim=lambda: trimmed.append(crowd.count))
    for _ in range(FLOOD // 4):  # a table's pages coming and going: no flood
        crowd.admit("10.0.0.7")
    for _ in range(FLOOD // 4):
        crowd.leave("10.0.0.7")
    assert trimmed == []
    for n in range(FLOOD):
        crowd.admit(f"10.0.1.{n % 9}")
    for n in range(FLOOD):
        crowd.leave(f"10.0.1.{n % 9}")
    assert trimmed == [FLOOD // 4]  # once, when few were left (no loop here: at once)
    crowd.admit("10.0.0.7")
    crowd.leave("10.0.0.7")
    assert trimmed == [FLOOD // 4]  # and not again until another flood


def test_on_the_server_it_waits_for_the_floods_last_stream(monkeypatch):
    """Each close puts the trim off again: it runs once, after the last one."""
    import asyncio

    from napledger.web import crowd as module

    monkeypatch.setattr(module, "TRIM_AFTER", 0.0)  # due at the loop's next turn
    monkeypatch.setattr(module, "TRIM_AGAIN", 0.0)

    async def scenario() -> list[int]:
        trimmed: list[int] = []
        crowd = Crowd(connections=4 * module.FLOOD, trim=lambda: trimmed.append(crowd.count))
        for _ in range(module.FLOOD):
            crowd.admit("10.0.0.7")
        pending = []
        for _ in range(module.FLOOD):
            crowd.leave("10.0.0.7")  # closes within one turn of the loop, as in a flood
            pending.append(crowd.trimming)
        assert trimmed == []  # not while the flood is still closing
        waiting = [h for h in pending if h is not None]
        assert len(waiting) == module.FLOOD // 4 + 1  # from when few were left, each close
        assert all(h.cancelled() for h in waiting[:-1])  # put it off again
        for _ in range(4):
            await asyncio.sleep(0)  # the loop's next turns: no time passes
        assert crowd.trimming is None
        return trimmed

    # Once after the last stream, and once more when the last connections have closed.
    assert asyncio.run(scenario()) == [0, 0]
