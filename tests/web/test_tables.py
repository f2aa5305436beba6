"""Several tables at once on one server (README, "Several tables"): the list of sessions
shows the open tables live, each keeper writes only their own table. On PostgreSQL when
NAPLEDGER_TEST_POSTGRES is set (as in CI's second run), else on the SQLite file."""

from __future__ import annotations

import httpx2

from napledger.web.keys import organiser_key
from tests.web import test_browser as shared
from tests.web.conftest import SECRET, keeper_key, tap
from tests.web.test_live import events

pytestmark = shared.pytestmark


def test_two_tables_at_once_with_two_keepers_and_a_live_list(browser, live_server, nap):
    nap("new north --players Ann,Ben,Cat,Dan --chip 0.10 --currency GBP")
    nap("new south --players Борис,Гена,Ира,Оля --variant russian --chip 5 --currency RUB")
    tabs = {}
    for who in ("organiser", "viewer", "north", "south"):
        tabs[who] = browser.new_context(viewport=shared.PHONE).new_page()
    organiser, viewer, north, south = tabs.values()
    organiser.goto(f"{live_server.url}/?key={organiser_key(SECRET)}")
    viewer.goto(f"{live_server.url}/")
    for page in (organiser, viewer):
        page.wait_for_selector("body[data-live=yes]")
        page.evaluate("window.sameDocument = true")
        assert page.locator("#open-tables li").count() == 2
    # The organiser's list has each table's own keeper link; the viewers' has none.
    assert viewer.locator("a.keep-link").count() == 0
    with organiser.expect_navigation():
        organiser.get_by_role("link", name="keep score at north").click()
    assert organiser.url == live_server.keeper(1)
    organiser.goto(f"{live_server.url}/?key={organiser_key(SECRET)}")
    organiser.wait_for_selector("body[data-live=yes]")
    organiser.evaluate("window.sameDocument = true")
    north.goto(live_server.keeper(1))
    south.goto(live_server.keeper(2))
    # Both keepers tap a deal and record it at the same moment.
    tap(north, "Bid", "nap")
    tap(north, "Bidder", "Ben")
    tap(north, "Result", "made")
    tap(south, "Bid", "napoleon")
    tap(south, "Bidder", "Ира")
    tap(south, "Result", "failed")
    north.get_by_role("button", name="Record deal 1").click(no_wait_after=True)
    south.get_by_role("button", name="Record deal 1").click(no_wait_after=True)
    for page in (north, south):
        page.wait_for_selector(".said")
        assert page.locator(".said").inner_text().startswith("Deal 1 recorded: ")
    # Each table has its own deal, and only its own.
    assert "Ben nap · made" in north.locator("#deals").inner_text()
    assert "Ира" in south.locator("#deals").inner_text()
    assert "Ира" not in north.locator("#deals").inner_text()
    # The lists follow both tables without a reload.
    for page in (organiser, viewer):
        for table in (1, 2):
            page.wait_for_selector(f'#open-tables li[data-session="{table}"][data-hands="1"]')
    # A third table starts elsewhere, and the first closes: the lists follow again.
    nap("new west --players Eve,Fay,Gus")
    nap("close --session north --pot split", input="y\n")
    for page in (organiser, viewer):
        page.wait_for_selector('#open-tables li[data-session="3"]')
        page.wait_for_selector('#closed-sessions li[data-session="1"]')
        assert page.locator("#open-tables li").count() == 2
        assert page.evaluate("window.sameDocument") is True
    assert organiser.locator('#open-tables li[data-session="3"] a.keep-link').count() == 1
    # The ledger says what the pages said: one deal each, at its own table.
    assert [d["bidder"] for d in nap.json("hands --json --session north")] == ["Ben"]
    assert [d["bidder"] for d in nap.json("hands --json --session south")] == ["Ира"]
    for page in tabs.values():
        page.context.close()


def test_only_the_organisers_list_stream_carries_the_keepers_links(live_server, nap):
    nap("new north --players Ann,Ben,Cat")
    url = f"{live_server.url}/events"
    with httpx2.stream("GET", url, timeout=10) as stream:
        first = next(events(stream))
    assert 'data-session="1"' in first["html"] and "keep?key=" not in first["html"]
    with httpx2.stream("GET", url, params={"key": organiser_key(SECRET)}, timeout=10) as stream:
        first = next(events(stream))
    assert f"/s/1/keep?key={keeper_key(1)}" in first["html"]
    assert httpx2.get(url, params={"key": "guess-guess"}, timeout=10).status_code == 403
