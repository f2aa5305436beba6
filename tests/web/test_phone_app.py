"""The page as a phone app (README, "Everyone's phone"): kept on the home screen, opening
where it was added, and honest when the connection drops."""

from __future__ import annotations

import json

from tests.real_clients import needs
from tests.web.conftest import KEY, free_port, serving, stop
from tests.web.test_browser import CHROMIUM, page  # noqa: F401  (a fixture)


def manifest_of(client, path: str) -> dict:
    html = client.get(path).text
    link = html.split('<link rel="manifest" href="', 1)[1].split('"', 1)[0]
    answer = client.get(link.replace("&amp;", "&"))
    assert answer.headers["content-type"] == "application/manifest+json"
    return json.loads(answer.text)


def test_each_page_kept_as_an_app_opens_where_it_was_added(client, nap):
    nap("new fri --players Ann,Ben,Cat")
    viewers = manifest_of(client, "/s/1")
    assert viewers["display"] == "standalone" and viewers["start_url"] == "/s/1"
    keeper = manifest_of(client, f"/s/1/keep?key={KEY}")
    assert keeper["start_url"] == f"/s/1/keep?key={KEY}"
    assert (
        client.get("/app.webmanifest", params={"start": f"/s/1/keep?key={KEY}"}).headers[
            "cache-control"
        ]
        == "no-store"
    )
    # The app opens only a page of this server, never another site.
    for start in ("https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:1"):
        opened = client.get("/app.webmanifest", params={"start": start}).json()["start_url"]
        assert opened == "/", start
    assert "manifest-src 'self'" in client.get("/s/1").headers["content-security-policy"]


@needs(str(CHROMIUM))
def test_the_board_stays_marked_not_live_while_the_laptop_is_away_and_catches_up(
    page,  # noqa: F811  (the fixture imported above)
    nap,
):
    nap("new fri --players Ann,Ben,Cat")
    port = free_port()
    running = serving(port)
    try:
        page.goto(f"http://127.0.0.1:{port}/s/1")
        page.wait_for_selector("body[data-live=yes]")
        assert not page.locator(".offline").is_visible()
        stop(running)  # the laptop's Wi-Fi drops
        page.wait_for_selector("body[data-live=no]", state="attached", timeout=15000)
        assert page.locator(".offline").is_visible()
        assert page.locator("#board").is_visible()  # the last board stays on screen
        nap("hand 3 --by Ann --tricks 3")  # a deal while the phone is cut off
        running = serving(port)  # and it comes back
        page.wait_for_selector('body[data-arrived~="1"]', state="attached", timeout=15000)
        assert page.get_attribute("body", "data-live") == "yes"
        assert not page.locator(".offline").is_visible()
    finally:
        stop(running)
    # What the browser logs about the lost connection itself is not a problem of the page.
    assert [p for p in page.problems if "ERR_CONNECTION_REFUSED" not in p] == []
