"""A 5,000-deal session still makes a small page (README, Performance: under 60 KB with
everything a phone downloads), its chart a readable sample of the evening."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from napledger.core.options import DealOptions
from napledger.core.read.page import CHART_STEPS
from napledger.core.rules import load_preset
from napledger.service.api import Database
from tests.web.conftest import KEY

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve")
DEALS = 5000
LIMIT = 60 * 1024  # bytes


def seed() -> None:
    """5,000 deals through the session API in one transaction: seconds, not the minutes
    5,000 `hand` commands take."""
    with Database() as database, database.write() as tx:
        tx.new_session("marathon", load_preset("classic"), list(PLAYERS), Decimal("0.05"), "GBP")
        s = tx.session("marathon")
        for n in range(DEALS):
            made = n % 3 > 0
            bid = "nap" if n % 7 == 0 else "3"
            s.record(DealOptions(bid=bid, by=PLAYERS[n % 5], made=made, failed=not made))
        s.join("Fay")  # a sixth seat late on: a line that starts near the right edge
        s.record(DealOptions(bid="3", by="Ann", made=True))


# The page's size is the backend's no matter: once, on SQLite (5,000 deals take 20 s to
# write on PostgreSQL, where the second CI run would pay for them for nothing).
@pytest.mark.sqlite_only
def test_the_pages_of_a_5000_deal_session_stay_under_60_kb(client):
    seed()
    assets = sum(
        len(client.get(path).content)
        for path in ("/static/nap.css", "/static/nap.js", "/static/icon.svg", "/app.webmanifest")
    )
    for url in ("/s/1", f"/s/1/keep?key={KEY}"):
        page = client.get(url)
        assert page.status_code == 200
        assert len(page.content) + assets < LIMIT, (url, len(page.content), assets)
        assert f"{DEALS + 1} deals" in page.text
        # The chart: at most CHART_STEPS points a line (and the start at 0), not 5,001.
        lines = re.findall(r'<polyline[^>]*points="([^"]+)"', page.text)
        assert lines and all(len(p.split()) <= CHART_STEPS + 1 for p in lines)
        # Readable: a handful of deal numbers along the bottom, the last deal's among them.
        ticks = re.findall(r'text-anchor="middle">([^<]+)</text>', page.text)
        assert 3 <= len(ticks) <= 12 and str(DEALS + 1) in ticks, ticks
    # The keeper's list of deals to correct is the recent few, not 5,000 buttons.
    keeper = client.get(f"/s/1/keep?key={KEY}").text
    assert len(re.findall(r'name="amend" value="\d+"', keeper)) <= 10
