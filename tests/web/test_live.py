"""Live updates through a real server: deals written by other processes reach open pages."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx2
import pytest


def events(response: httpx2.Response) -> Iterator[dict]:
    """The data of each server-sent event, as the browser's EventSource would see it."""
    data: list[str] = []
    for line in response.iter_lines():
        if line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line and data:
            yield json.loads("\n".join(data))
            data = []


@pytest.fixture
def evening(nap):
    nap("new fri --players Ann,Ben,Cat,Dan")
    nap("hand nap --by Ann --made")
    return 1


def test_a_deal_from_a_separate_hand_process_is_pushed_within_a_second(live_server, evening):
    page = httpx2.get(f"{live_server.url}/s/1").text
    since = page.split('data-since="')[1].split('"')[0]
    with httpx2.stream("GET", f"{live_server.url}/s/1/events?since={since}", timeout=10) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        feed = events(stream)
        first = next(feed)
        assert first["deals"] == [] and 'data-deal="1"' in first["html"]
        subprocess.run(
            [sys.executable, "-m", "napledger", "hand", "misere", "--by", "Ben", "--made"],
            check=True,
            capture_output=True,
        )
        written = time.monotonic()
        pushed = next(feed)
        assert time.monotonic() - written < 1.0
        assert pushed["deals"] == ["2"]
        assert "Ben bid misère: made" in pushed["html"]


def test_undo_and_amend_by_other_processes_are_pushed_too(live_server, nap, evening):
    with httpx2.stream("GET", f"{live_server.url}/s/1/events", timeout=10) as stream:
        feed = events(stream)
        next(feed)
        nap("amend 1 --failed")
        amended = next(feed)
        assert amended["deals"] == ["1.2"] and "nap: failed" in amended["html"]
        nap("undo")
        undone = next(feed)
        assert undone["deals"] == [] and "No deals yet" in undone["html"]


def test_a_reconnecting_page_gets_the_deals_it_missed_once(live_server, nap, evening):
    nap("hand 3 --by Cat --made")
    nap("hand 4 --by Dan --failed")
    # The browser sends the id of the last event it saw; deal 1's record has id 1.
    headers = {"last-event-id": "1"}
    with httpx2.stream(
        "GET", f"{live_server.url}/s/1/events", headers=headers, timeout=10
    ) as stream:
        assert next(events(stream))["deals"] == ["2", "3"]


def test_events_of_an_unknown_session_are_404(live_server, evening):
    assert httpx2.get(f"{live_server.url}/s/9/events", timeout=10).status_code == 404


def test_an_overflowing_last_event_id_starts_afresh_not_a_crash(live_server, evening):
    headers = {"last-event-id": "9" * 23}
    with httpx2.stream(
        "GET", f"{live_server.url}/s/1/events", headers=headers, timeout=10
    ) as stream:
        first = next(events(stream))
        assert first["deals"] == [] and 'data-deal="1"' in first["html"]
