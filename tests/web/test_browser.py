"""A real browser at a phone's size: Playwright driving the Chromium that Debian packages.

No browser is ever downloaded: Playwright is pointed at /usr/bin/chromium, which `.ci/run`
installs with apt when it is missing. The pictures these tests take are for looking at
(their evening has a hostile name in it); the README's come from test_whole_evening.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from tests.real_clients import needs
from tests.web.conftest import CHROMIUM, HOSTILE, KEY, no_sideways_scroll
from tests.web.test_pages import without_option

# How long a test waits for a live change to reach the page. The figure the table feels
# (a deal on every phone within a second) is benchmarks/bench_serve.py's; a test on a
# loaded CI machine only asks that it comes, without a reload.
LIVE = 10_000

PHONE = {"width": 390, "height": 844}

pytestmark = needs(str(CHROMIUM))


@pytest.fixture
def page(browser) -> Iterator[object]:
    context = browser.new_context(viewport=PHONE)
    tab = context.new_page()
    tab.problems = []  # CSP violations, script errors, alerts: none may happen
    tab.on("console", lambda m: m.type == "error" and tab.problems.append(m.text + " @ " + tab.url))
    tab.on("pageerror", lambda e: tab.problems.append(str(e)))
    tab.on("dialog", lambda d: (tab.problems.append(f"dialog: {d.message}"), d.dismiss()))
    yield tab
    context.close()


def confirmed(page, button: str) -> str:
    """Taps `button`, reads the question it asks on the page, and answers it with the same
    button; returns the question."""
    page.get_by_role("button", name=button).first.click()
    asked = page.locator(".ask").inner_text()
    with page.expect_navigation():
        page.locator(".ask").get_by_role("button", name=button).click()
    return asked.splitlines()[0]


def shot(page, name: str, tmp_path: Path) -> None:
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)


def refused(page, status: int) -> None:
    """Chromium logs each refused request as an error: those we provoked are expected."""
    page.problems = [p for p in page.problems if f"status of {status} " not in p]


def signed(money: str, currency: str) -> str:
    amount = Decimal(money)
    return f"{amount:+} {currency}" if amount else f"{amount} {currency}"


@pytest.fixture
def evening(nap):
    nap(f"new friday --players Ann,Ben,'{HOSTILE}',Dan --chip 0.05 --currency GBP")
    nap("hand nap --by Ann --tricks 5")
    nap("hand 3 --by Ben --failed --peep Dan")
    nap(f"hand misere --by '{HOSTILE}' --made")
    nap("hand 4 --by Dan --revoke Ann")
    return 1


def test_the_scoreboard_equals_table_json(page, live_server, nap, evening, tmp_path):
    page.goto(f"{live_server.url}/s/1")
    table = nap.json("table --json")
    rows = page.locator("#scoreboard tbody tr")
    shown = {
        rows.nth(i).locator("td").nth(0).inner_text(): (
            int(rows.nth(i).locator("td").nth(1).inner_text()),
            rows.nth(i).locator("td").nth(2).inner_text(),
        )
        for i in range(rows.count())
    }
    assert shown == {p["name"]: (p["chips"], signed(p["money"], "GBP")) for p in table["players"]}
    assert int(page.locator("#pot").inner_text()) == table["pot"]
    no_sideways_scroll(page)
    shot(page, "viewers", tmp_path)
    assert page.problems == []


def test_a_deal_from_a_separate_hand_process_appears_without_a_reload(
    page, live_server, nap, evening
):
    page.goto(f"{live_server.url}/s/1")
    page.wait_for_selector("body[data-live=yes]")
    page.evaluate("window.sameDocument = true")
    subprocess.run(
        [sys.executable, "-m", "napledger", "hand", "nap", "--by", "Ben", "--made"],
        check=True,
        capture_output=True,
    )
    page.wait_for_selector('#deals li[data-deal="5"]', timeout=LIVE)
    assert page.evaluate("window.sameDocument") is True  # no reload happened
    assert "Ben nap · made" in page.locator('#deals li[data-deal="5"]').inner_text()
    assert page.locator("body").get_attribute("data-arrived") == "5"
    assert page.problems == []


def test_a_deal_entered_on_the_scorekeepers_page_is_in_hands_json(
    page, live_server, nap, evening, tmp_path
):
    page.goto(live_server.keeper(1))
    no_sideways_scroll(page)
    shot(page, "scorekeeper", tmp_path)
    page.locator("fieldset", has_text="Bid").get_by_text("four", exact=True).click()
    page.locator("fieldset", has_text="Bidder").get_by_text("Dan", exact=True).click()
    page.locator("fieldset", has_text="or tricks taken").get_by_text("4", exact=True).click()
    page.locator("fieldset", has_text="Peeped").get_by_text("Ann", exact=True).click()
    with page.expect_navigation():
        page.get_by_role("button", name="Record deal").click()
    page.wait_for_selector(".said")
    assert page.locator(".said").inner_text().startswith("Deal 5 recorded: ")
    deal = nap.json("hands --json")[-1]
    assert (deal["number"], deal["bid"], deal["bidder"], deal["tricks"], deal["peeps"]) == (
        5,
        "four",
        "Dan",
        4,
        ["Ann"],
    )
    # A refused entry shows the CLI's line (without the option it points at) and leaves the
    # ledger as it was.
    page.locator("fieldset", has_text="Bid").get_by_text("nap", exact=True).click()
    with page.expect_navigation():
        page.get_by_role("button", name="Record deal").click()
    assert page.locator(".error[role=alert]").inner_text() == without_option(nap.fails("hand nap"))
    assert len(nap.json("hands --json")) == 5
    refused(page, 400)
    page.locator("fieldset", has_text="Result").get_by_text("failed", exact=True).click()
    with page.expect_navigation():
        page.get_by_role("button", name="Amend deal 5").click()
    page.wait_for_selector(".said")
    assert page.locator(".said").inner_text() == "Deal 5 amended (now 5.2)."
    assert nap.json("hands --json")[-1]["outcome"] == "failed"
    confirmed(page, "Undo deal 5")
    page.wait_for_selector(".said")
    assert nap.json("table --json")["hands"] == 4
    assert page.problems == []


def test_the_viewers_link_has_no_form_and_its_forged_post_is_refused(
    page, live_server, nap, evening
):
    page.goto(f"{live_server.url}/s/1")
    assert page.locator("form").count() == 0
    before = nap.json("hands --json")
    statuses = page.evaluate(
        """async () => {
            const tries = [{}, {key: "guess"}, {key: "", bid: "nap", by: "Ann", result: "made"}];
            const out = [];
            for (const t of tries) {
                const r = await fetch("/s/1/hand", {method: "POST", body: new URLSearchParams(t)});
                out.push(r.status);
            }
            return out;
        }"""
    )
    assert statuses == [403, 403, 403]
    assert nap.json("hands --json") == before
    refused(page, 403)
    assert page.problems == []


def test_a_post_from_another_site_is_refused_even_with_the_key(browser, live_server, nap, evening):
    """A page on another origin submitting a form at the server: the browser says so."""
    context = browser.new_context(viewport=PHONE)
    evil = context.new_page()
    evil.goto("about:blank")
    evil.set_content(
        f'<form method="post" action="{live_server.url}/s/1/pass">'
        f'<input name="key" value="{KEY}"><button>go</button></form>'
    )
    with evil.expect_navigation():
        evil.click("button")
    assert "Not allowed" in evil.content()
    assert nap.json("table --json")["hands"] == 4
    context.close()


def test_the_hostile_name_renders_as_text_and_runs_nothing(page, live_server, evening):
    for url in (f"{live_server.url}/s/1", live_server.keeper(1)):
        page.goto(url)
        assert page.locator("#board img").count() == 0
        assert page.locator("main img").count() == 0
        names = page.locator("#scoreboard td.name").all_inner_texts()
        assert HOSTILE in names
    assert page.problems == []


def test_no_page_scrolls_sideways_on_a_small_phone_or_breaks_on_a_tv(
    browser, live_server, nap, evening, tmp_path
):
    for size, label in (
        ({"width": 360, "height": 740}, "small"),
        ({"width": 1920, "height": 1080}, "tv"),
    ):
        context = browser.new_context(viewport=size)
        tab = context.new_page()
        for url in (f"{live_server.url}/", f"{live_server.url}/s/1", live_server.keeper(1)):
            tab.goto(url)
            no_sideways_scroll(tab)
        tab.goto(f"{live_server.url}/s/1")
        if label == "tv":
            shot(tab, "tv", tmp_path)
        context.close()


def test_the_sessions_list_links_to_each_session(page, live_server, nap, evening, tmp_path):
    nap("new saturday --players Ann,Ben,Cat")
    page.goto(f"{live_server.url}/")
    no_sideways_scroll(page)
    shot(page, "sessions", tmp_path)
    page.get_by_role("link", name="friday").click()
    assert page.locator(".session-name").inner_text() == "friday"
    assert json.loads(json.dumps(page.problems)) == []


def test_a_long_name_without_spaces_wraps_on_the_phone(page, live_server, nap):
    long = "Bartholomew" * 3 + "Bartho"  # 39 letters, no space to break at
    nap(f"new fri --players Ann,{long},Cat,Dan")
    nap(f"hand nap --by {long} --made")
    for url in (f"{live_server.url}/s/1", live_server.keeper(1)):
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width == PHONE["width"], url  # the join/leave lists and payments shrink too
        no_sideways_scroll(page)
    assert page.problems == []


def test_the_keepers_page_leads_with_the_state_of_the_table(page, live_server, nap):
    # Six seated in classic: the dealer sits out (docs/rules.md), said before any bid.
    nap("new six --players Ann,Ben,Cat,Dan,Eve,Fay")
    page.goto(live_server.keeper(1))
    upcoming = page.locator("#upcoming")
    assert upcoming.inner_text() == "Deal 1 · Next to deal: Ann, who sits out: no cards, no bid"
    top = upcoming.bounding_box()
    assert top is not None and top["y"] + top["height"] < 200  # on the first screen
    first_field = page.locator("#deal fieldset").first.bounding_box()
    assert first_field is not None and first_field["y"] > top["y"]  # then the deal
    assert page.problems == []
