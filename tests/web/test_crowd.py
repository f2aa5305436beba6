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
