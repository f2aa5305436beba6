"""The lists' live streams (the viewers' list, and the organiser's with every keeper's
key) are the server's own: no session's address reaches them, whatever it is named."""

from __future__ import annotations

import httpx2

from tests.web.test_live import events


def test_a_session_named_like_a_list_streams_its_own_board_and_no_keys(live_server, nap):
    name = "-1"  # as a number, the organiser's list
    nap(f"new --players Ann,Ben,Cat -- {name}")
    nap("hand 3 --by Ann --made")
    with httpx2.stream("GET", f"{live_server.url}/s/{name}/events", timeout=10) as stream:
        first = next(events(stream))
    assert "key=" not in first["html"]  # the organiser's list carries every keeper's link
    assert "Ann three · made" in first["html"]  # the session's own board
