"""The keeper's phone without traps (#36), as a new scorekeeper plays an evening at 360×740
in Debian's Chromium against the real `napledger serve`, stopped and started again as a
laptop is: nothing typed is lost, nothing tapped is stuck, a restart or a dropped Wi-Fi
costs nothing, and what a risky tap will do is asked first.

Every wait is for an event or a state of the page, never a sleep. With NAPLEDGER_SCREENSHOTS
set, its pictures (docs/screenshots/phone-*.png) are written there.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tests.web import test_browser as shared
from tests.web.conftest import Pictures, free_port, record, tap

pytestmark = shared.pytestmark

BACK = 30_000  # how long the page may take to notice the server is back (Chromium retries)


class Serve:
    """`napledger serve` as the organiser runs it: no --key, on one port, Ctrl-C to stop."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> dict[str, str]:
        """Started; the links it printed, by their first word, and what it said of them."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "napledger", "serve", "--port", str(self.port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            # The allocator it would start itself again on (napledger/allocator.py): one
            # interpreter a start, not two (the restart itself: tests/web/test_serve.py).
            env={**os.environ, "PYTHONMALLOC": "malloc"},
        )
        assert self.process.stdout is not None
        printed: dict[str, str] = {}
        for line in self.process.stdout:
            if line.startswith("Ctrl-C"):
                return printed
            printed[line.split()[0]] = line.split()[-1]
            printed["said"] = line  # the last: which links these are
        raise AssertionError(self.process.communicate(timeout=15)[1])

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGINT)
        _, err = self.process.communicate(timeout=15)
        self.process = None
        assert "Traceback" not in err, err


@pytest.fixture
def serve():
    server = Serve(free_port())
    yield server
    server.stop()


def chosen(page, name: str) -> list[str]:
    return page.locator(f"#deal input[name={name}]:checked").evaluate_all(
        "(inputs) => inputs.map(i => i.value)"
    )


def live_deals(nap) -> list[dict]:
    return [d for d in nap.json("hands --json") if d["status"] == "live"]


def test_a_new_scorekeeper_meets_no_trap(phone, serve, nap, tmp_path):
    page = phone
    pictures = Pictures(page, "phone", tmp_path / "shots")
    printed = serve.start()
    assert printed["said"].startswith(
        "New secret: these links work after a restart. The secret is kept in "
    )

    # --- Nothing typed is lost: the game changes, the name and players stay -------------
    page.goto(printed["Organiser"])
    with page.expect_navigation():
        page.get_by_role("link", name="Start a new session").click()
    page.get_by_label("Name").fill("friday")
    page.get_by_label("Players, one a line, in seat order").fill("Ann\nBen\nCat\nDan")
    page.get_by_label("Game").select_option("seven-card")
    page.wait_for_selector("#new[data-game=seven-card]", state="attached")
    page.get_by_label("Game").select_option("classic")
    page.wait_for_selector("#new[data-game=classic]", state="attached")
    assert page.get_by_label("Name").input_value() == "friday"
    assert page.get_by_label("Players, one a line, in seat order").input_value() == (
        "Ann\nBen\nCat\nDan"
    )
    # Each setting by what it does, with a control of its kind and range.
    assert page.locator('input[type=checkbox][name="rule.misere"]').is_checked()
    fee = page.locator('input[name="rule.peep_fee"]')
    assert (fee.get_attribute("type"), fee.get_attribute("min"), fee.input_value()) == (
        "number",
        "0",
        "1",
    )
    # "Deals first" offers the players typed.
    dealers = page.locator("select[name=dealer] option").all_inner_texts()
    assert dealers[1:] == ["Ann", "Ben", "Cat", "Dan"]
    page.locator("select[name=dealer]").select_option("Ben")
    page.get_by_label("Currency").fill("GBP")
    pictures.shot("1-new-kept", at="#new")
    pictures.shot("1-settings", at="#settings")

    # --- The started page survives a reload -----------------------------------------------
    with page.expect_navigation():
        page.get_by_role("button", name="Start the session").click()
    again = page.reload()
    assert again is not None and again.status == 200
    assert page.locator(".error").count() == 0
    assert page.locator(".link img").count() == 2  # both QR codes, drawn again
    assert page.locator(".said").first.inner_text().startswith("Session friday (#1) started")
    pictures.shot("2-started-reloaded")
    with page.expect_navigation():
        page.locator(".link", has_text="Scorekeeper").get_by_role("link").click()
    keeper = page.url
    assert page.locator("#upcoming").inner_text() == "Deal 1 · Next to deal: Ben"

    # --- A result is one choice: made, then 3, then made again ---------------------------
    tap(page, "Bid", "three")
    tap(page, "Bidder", "Ann")
    tap(page, "Result", "made")
    tap(page, "or tricks taken", "3")
    assert chosen(page, "result") == ["3"]
    tap(page, "Result", "made")
    assert chosen(page, "result") == ["made"]
    tap(page, "Revoke by", "Cat")
    tap(page, "Revoke by", "Cat")  # a chosen button tapped again is unchosen
    assert chosen(page, "revoke") == []
    pictures.shot("3-one-result", at="#deal")
    assert record(page).startswith("Deal 1 recorded")
    first = live_deals(nap)[-1]
    assert (first["bidder"], first["outcome"], first["tricks"], first["revoker"]) == (
        "Ann",
        "made",
        None,
        None,
    )

    # --- A restart keeps every link -------------------------------------------------------
    serve.stop()
    printed = serve.start()
    assert printed["said"].startswith("The links given out before still work")
    assert printed["Scorekeeper"] == keeper
    page.goto(keeper)
    assert record(page, ("Bid", "four"), ("Bidder", "Ben"), ("Result", "failed")).startswith(
        "Deal 2 recorded"
    )

    # --- A dropped connection: the deal waits on the phone, and goes once -----------------
    page.wait_for_selector("body[data-live=yes]", state="attached")
    serve.stop()
    page.wait_for_selector("body[data-live=no]", state="attached")
    banner = page.locator(".offline")
    assert banner.is_visible() and banner.bounding_box()["y"] < 60  # at the top
    tap(page, "Bid", "nap")
    tap(page, "Bidder", "Cat")
    tap(page, "Result", "made")
    page.get_by_role("button", name="Record deal 3").click()
    waiting = page.locator(".keep .waiting")
    assert waiting.inner_text() == (
        "Deal 3 is kept on this phone and sent when the server answers again:\nnap · Cat · made"
    )
    pictures.shot("4-waiting")
    assert len(live_deals(nap)) == 2
    with page.expect_navigation(timeout=BACK):
        serve.start()  # the page hears the server again, and sends the deal it kept
    page.wait_for_selector(".said")
    assert page.locator(".said").inner_text().startswith("Deal 3 recorded")
    page.reload()  # nothing is kept any more: a reload sends nothing
    deals = live_deals(nap)
    assert [(d["number"], d["bidder"], d["bid"]) for d in deals] == [
        (1, "Ann", "three"),
        (2, "Ben", "four"),
        (3, "Cat", "nap"),
    ]

    # --- ... and is refused, saying why, if the table moved on meanwhile ------------------
    page.wait_for_selector("body[data-live=yes]", state="attached")
    serve.stop()
    page.wait_for_selector("body[data-live=no]", state="attached")
    tap(page, "Bid", "three")
    tap(page, "Bidder", "Dan")
    tap(page, "Result", "failed")
    page.get_by_role("button", name="Record deal 4").click()
    page.wait_for_selector(".keep .waiting")
    nap("hand 4 --by Ann --made")  # deal 4, from the terminal, meanwhile
    # The old page may not hear the server first: the reload must find the deal it kept.
    page.route("**/events**", lambda route: route.abort())
    serve.start()
    page.reload()
    refusal = page.locator(".keep > .error")
    refusal.wait_for()
    assert refusal.inner_text() == (
        "Error: deal 4 was recorded meanwhile (Ann dealt · Ann bid four: made); "
        "nothing changed (the next deal is 5)\nthree · Dan · failed"
    )
    page.unroute("**/events**")
    page.wait_for_selector("body[data-live=yes]", state="attached", timeout=BACK)
    assert refusal.is_visible()  # the board came; the reason stays until the next change
    pictures.shot("5-refused")
    assert [(d["number"], d["bidder"]) for d in live_deals(nap)][-1] == (4, "Ann")
    assert len(live_deals(nap)) == 4

    # --- Risky taps ask first -------------------------------------------------------------
    page.goto(keeper)
    assert page.locator("select[name=player]").input_value() == ""  # Leave: nobody yet
    # Each deal to correct with its text (label, dealer, bidder, bid, result): no tooltip.
    assert (
        page.locator('#fix button[value="1"]').inner_text() == "1 Ben dealt · Ann bid three: made"
    )
    page.get_by_role("button", name="Undo deal 4").click()
    assert page.locator(".ask p").inner_text() == "Void deal 4: Ann dealt · Ann bid four: made?"
    pictures.shot("6-undo-asks", at=".ask")
    page.locator(".ask").get_by_role("button", name="Cancel").click()
    assert page.locator(".ask").count() == 0
    assert len(live_deals(nap)) == 4  # nothing done
    assert shared.confirmed(page, "Undo deal 4") == "Void deal 4: Ann dealt · Ann bid four: made?"
    assert page.locator(".said").inner_text() == "Deal 4 voided."
    assert len(live_deals(nap)) == 3
    assert "· 3 deals, 1 voided" in nap("table").stdout
    assert "· 3 deals, 1 voided</h2>" in page.content()

    # A correction opens with its result chosen: a trick count replaces it, and goes.
    page.goto(keeper + "&amend=2")
    assert chosen(page, "result") == ["failed"]
    tap(page, "or tricks taken", "3")
    assert chosen(page, "result") == ["3"]
    tap(page, "or tricks taken", "3")
    assert chosen(page, "result") == []

    shared.refused(page, 400)
    page.problems = [p for p in page.problems if "ERR_" not in p]
    assert page.problems == []


def test_the_phone_leaving_the_wifi_says_not_live_at_once_and_back(phone, live_server, nap):
    nap("new friday --players Ann,Ben,Cat,Dan")
    page = phone
    page.goto(live_server.keeper(1))
    page.wait_for_selector("body[data-live=yes]", state="attached")
    page.context.set_offline(True)
    page.wait_for_selector("body[data-live=no]", state="attached")
    assert page.locator(".offline").bounding_box()["y"] < 60  # at the top of the screen
    page.context.set_offline(False)
    page.wait_for_selector("body[data-live=yes]", state="attached", timeout=BACK)
    assert not page.locator(".offline").is_visible()
    page.problems = [p for p in page.problems if "ERR_" not in p]
    assert page.problems == []
