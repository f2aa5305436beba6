"""The keeper's writes happen exactly once and only against the board the page showed;
the success line is only ever one the server made (docs/rules.md, "Exactly once")."""

from __future__ import annotations

import html
import re

from tests.web import test_pages as pages
from tests.web.conftest import HOSTILE, KEY, keeper_key
from tests.web.test_pages import error_line, post

evening = pages.evening  # Ann, Ben, Cat, Dan and two deals, as the page tests have


def shown(client, action: str) -> dict[str, str]:
    """The hidden fields of the keeper's form for `action`, as the page draws them now."""
    page = client.get(f"/s/1/keep?key={KEY}").text
    if action == "amend":  # the deal form's second button
        action = "hand"
    form = re.search(rf'<form[^>]*action="/s/1/{action}".*?</form>', page, re.S)
    assert form, page
    fields = re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', form.group(0))
    return {name: html.unescape(value) for name, value in fields if name not in ("key", "buyer")}


def said_line(text: str) -> str | None:
    found = re.search(r'<p class="said"[^>]*>(.*?)</p>', text, re.S)
    return html.unescape(found.group(1)) if found else None


def test_the_forms_post_what_the_page_showed(client, evening):
    assert shown(client, "hand") == {"next_deal": "3", "number": "2", "revision": "1"}
    assert shown(client, "pass") == {"next_deal": "3"}
    assert shown(client, "undo") == {"number": "2", "revision": "1"}


def test_a_deal_posted_twice_records_one_deal_and_answers_both(client, nap, evening):
    fields = {**shown(client, "hand"), "bid": "misere", "by": "Dan", "result": "made"}
    first = post(client, "/s/1/hand", **fields)
    again = post(client, "/s/1/hand", **fields)  # a retry after a lost answer
    assert first.status_code == again.status_code == 303
    assert first.headers["location"] == again.headers["location"]
    assert said_line(client.get(again.headers["location"]).text).startswith("Deal 3 recorded: ")
    assert [d["number"] for d in nap.json("hands --json")] == [1, 2, 3]


def test_a_pass_posted_twice_is_one_deal(client, nap, evening):
    fields = shown(client, "pass")
    assert post(client, "/s/1/pass", **fields).status_code == 303
    assert post(client, "/s/1/pass", **fields).status_code == 303
    assert nap.json("table --json")["hands"] == 3


def test_a_different_deal_under_the_number_already_taken_is_refused(client, nap, evening):
    fields = shown(client, "hand")
    nap("hand nap --by Cat --tricks 5")  # deal 3, typed in a terminal
    before = nap.json("hands --json")
    answer = post(client, "/s/1/hand", **fields, bid="misere", by="Dan", result="made")
    assert answer.status_code == 400
    assert error_line(answer.text) == (
        "Error: deal 3 was recorded meanwhile (Cat dealt · Cat bid nap: made (5 tricks)); "
        "nothing changed (the next deal is 4)"
    )
    assert nap.json("hands --json") == before


def test_an_amend_prepared_before_a_terminal_deal_is_refused(client, nap, evening):
    fields = shown(client, "amend")  # "Amend deal 2"
    nap("hand nap --by Cat --tricks 5")
    before = nap.json("hands --json")
    answer = post(client, "/s/1/amend", **fields, result="made")
    assert answer.status_code == 400
    assert error_line(answer.text) == "Error: deal 3 was recorded meanwhile; nothing changed"
    assert nap.json("hands --json") == before
    # The page drawn again names deal 3, and its amend goes through.
    assert "Amend deal 3" in answer.text
    assert post(client, "/s/1/amend", **shown(client, "amend"), result="failed").status_code == 303


def test_an_amend_posted_twice_makes_one_version(client, nap, evening):
    fields = {**shown(client, "amend"), "result": "made"}
    first = post(client, "/s/1/amend", **fields)
    again = post(client, "/s/1/amend", **fields)
    assert first.status_code == again.status_code == 303
    assert said_line(client.get(again.headers["location"]).text) == "Deal 2 amended (now 2.2)."
    assert [(d["number"], d["revision"]) for d in nap.json("hands --json")] == [
        (1, 1),
        (2, 1),
        (2, 2),
    ]


def test_an_undo_prepared_before_a_terminal_change_is_refused(client, nap, evening):
    fields = shown(client, "undo")  # "Undo deal 2"
    nap("amend 2 --made")
    before = nap.json("hands --json")
    answer = post(client, "/s/1/undo", **fields)
    assert answer.status_code == 400
    assert error_line(answer.text) == (
        "Error: deal 2 was amended to 2.2 meanwhile; nothing was voided"
    )
    assert nap.json("hands --json") == before
    nap("hand nap --by Cat --tricks 5")
    answer = post(client, "/s/1/undo", **fields)
    assert error_line(answer.text) == (
        "Error: deal 2 is not the last deal (deal 3 is); nothing was voided"
    )
    assert nap.json("hands --json")[-1]["status"] == "live"


def test_an_undo_posted_twice_voids_one_deal(client, nap, evening):
    fields = shown(client, "undo")
    first = post(client, "/s/1/undo", **fields)
    again = post(client, "/s/1/undo", **fields)
    assert first.status_code == again.status_code == 303
    assert said_line(client.get(again.headers["location"]).text) == "Deal 2 voided."
    assert [d["status"] for d in nap.json("hands --json")] == ["live", "voided"]


def test_a_number_the_page_never_posts_is_refused_cleanly(client, nap, evening):
    before = nap.json("hands --json")
    answer = post(client, "/s/1/hand", next_deal="x", bid="nap", by="Ann", result="made")
    assert answer.status_code == 400
    assert "wants a whole number" in error_line(answer.text)
    assert nap.json("hands --json") == before


# --- the success line ------------------------------------------------------------------


def test_text_in_a_link_is_never_shown_as_the_success_line(client, evening):
    for said in ("Deal 9 recorded.", HOSTILE, "All debts are forgiven."):
        page = client.get("/s/1/keep", params={"key": KEY, "said": said})
        assert page.status_code == 200
        assert said_line(page.text) is None
        assert said not in page.text and HOSTILE not in page.text
        forged = client.get("/s/1/keep", params={"key": KEY, "said": said, "sig": "0" * 64})
        assert said_line(forged.text) is None


def test_the_success_line_is_the_servers_own_for_its_own_session(client, nap, evening):
    nap("new sat --players Ann,Ben,Cat")
    answer = post(client, "/s/1/pass", **shown(client, "pass"))
    target = answer.headers["location"]
    assert said_line(client.get(target).text) == "Deal 3 recorded (passed out)."
    # The same signed line on another session's page is not that session's to show.
    elsewhere = client.get(target.replace("/s/1/", "/s/2/").replace(KEY, keeper_key(2)))
    assert elsewhere.status_code == 200 and said_line(elsewhere.text) is None
    assert client.get(target.replace("/s/1/", "/s/2/")).status_code == 403  # 1's key on 2


# --- the controls, served alone for the live page ------------------------------------------


def test_the_controls_follow_a_terminal_deal_and_need_the_key(client, nap, evening):
    before = client.get(f"/s/1/keep/controls?key={KEY}")
    assert before.status_code == 200 and before.headers["cache-control"] == "no-store"
    assert "Amend deal 2" in before.text and "Record deal 3" in before.text
    nap("hand nap --by Cat --tricks 5")
    after = client.get(f"/s/1/keep/controls?key={KEY}")
    assert "Amend deal 3" in after.text and "Undo deal 3" in after.text
    assert "Record deal 4" in after.text and "Next to deal: Dan" in after.text
    state = re.compile(r'data-state="([0-9a-f]+)"')
    assert state.search(before.text).group(1) != state.search(after.text).group(1)
    assert "<html" not in after.text  # a fragment to swap in, not a page
    assert client.get("/s/1/keep/controls").status_code == 403
    assert client.get("/s/1/keep/controls?key=guess").status_code == 403
    assert client.get(f"/s/9/keep/controls?key={KEY}").status_code == 403  # not 9's key
    assert client.get(f"/s/9/keep/controls?key={keeper_key(9)}").status_code == 404


def test_a_name_in_the_controls_is_text(client, nap):
    nap("new fri --players Ann,Ben,Cat")
    nap(f"join '{HOSTILE}'")
    text = client.get(f"/s/1/keep/controls?key={KEY}").text
    assert HOSTILE not in text and html.escape(HOSTILE) in text


def test_the_same_deal_posted_at_once_from_five_tabs_is_one_deal(live_server, nap, evening):
    import http.client
    from concurrent.futures import ThreadPoolExecutor
    from urllib.parse import urlencode, urlsplit

    body = urlencode({"key": KEY, "next_deal": "3", "bid": "nap", "by": "Cat", "result": "made"})
    where = urlsplit(live_server.url)

    def send(_: int) -> tuple[int, str]:
        connection = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
        kind = {"content-type": "application/x-www-form-urlencoded"}
        connection.request("POST", "/s/1/hand", body=body, headers=kind)
        answer = connection.getresponse()
        connection.close()
        return answer.status, answer.getheader("location") or ""

    with ThreadPoolExecutor(5) as pool:
        answers = set(pool.map(send, range(5)))
    assert len(answers) == 1 and answers.pop()[0] == 303  # all five told the same
    assert [d["number"] for d in nap.json("hands --json")] == [1, 2, 3]


def test_a_refused_deal_keeps_everything_tapped(client, nap, evening):
    form = shown(client, "hand") | {
        "bid": "nap",
        "by": "Ann",
        "tricks": "9",  # more tricks than a hand holds: refused
        "revoke": "",
        "peep": ["Ben", "Cat"],
        "note": "Sir <Garnet>",
    }
    answer = post(client, "/s/1/hand", **form)
    assert answer.status_code == 400
    page = answer.text
    assert re.search(r'name="bid" value="nap" checked', page)
    assert re.search(r'name="by" value="Ann" checked', page)
    assert re.search(r'name="peep" value="Ben" checked', page)
    assert re.search(r'name="peep" value="Cat" checked', page)
    assert not re.search(r'name="peep" value="Ann" checked', page)
    assert 'value="Sir &lt;Garnet&gt;"' in page  # kept, and still only text
    assert len(nap.json("hands --json")) == 2  # nothing recorded


def test_the_controls_of_a_deal_voided_elsewhere_say_so_in_place_of_its_form(client, nap, evening):
    amending = client.get(f"/s/1/keep/controls?key={KEY}&amend=1")
    assert "Save deal 1" in amending.text
    nap("void 1")  # meanwhile, in a terminal
    after = client.get(f"/s/1/keep/controls?key={KEY}&amend=1")
    assert after.status_code == 200  # a fragment the page swaps in, not a 404 page
    assert "<html" not in after.text and after.text.lstrip().startswith('<div id="controls"')
    assert "Error: deal 1 of &#39;fri&#39; is voided and stays so" in after.text
    assert "Save deal 1" not in after.text and "Void deal 1" not in after.text
    assert "Record deal 3" in after.text  # the usual controls, as they are now
    state = re.compile(r'data-state="([^"]+)" data-controls="([^"]+)"')
    before_state, _ = state.search(amending.text).groups()
    after_state, follows = state.search(after.text).groups()
    assert after_state != before_state  # so the page swaps them in
    assert "amend=" not in follows  # and follows the usual controls from now on


def fields_of(page: str, action: str) -> dict[str, str]:
    form = re.search(rf'<form[^>]*action="/s/1/{action}".*?</form>', page, re.S)
    assert form, page
    found = re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', form.group(0))
    return {name: html.unescape(value) for name, value in found if name != "key"}


def test_seats_posted_twice_change_the_seating_once_and_a_stale_one_is_refused(
    client, nap, evening
):
    join = shown(client, "join")
    assert join == {"seating": "4"}  # Ann, Ben, Cat and Dan seated at the start
    first = post(client, "/s/1/join", **join, player="Zed")
    again = post(client, "/s/1/join", **join, player="Zed")
    assert first.status_code == again.status_code == 303
    assert first.headers["location"] == again.headers["location"]
    leave = shown(client, "leave")
    for _ in range(2):
        assert post(client, "/s/1/leave", **leave, player="Zed").status_code == 303
    stale = post(client, "/s/1/join", **join, player="Zed")  # the first join's form, again
    assert stale.status_code == 400
    assert "the seating changed meanwhile" in error_line(stale.text)
    assert nap.json("table --json")["seating_version"] == 6  # one join, one leave


def test_a_close_and_a_reopen_posted_twice_are_done_once(client, nap, evening):
    asked = client.post("/s/1/closing", data={"key": KEY, "pot": "split"}).text
    close = fields_of(asked, "close")
    assert close["closes"] == "0"
    for _ in range(2):
        assert post(client, "/s/1/close", **close).status_code == 303
    reopen = fields_of(client.get(f"/s/1/keep?key={KEY}").text, "reopen")
    assert reopen == {"close": "1"}
    for _ in range(2):
        assert post(client, "/s/1/reopen", **reopen).status_code == 303
    replayed = post(client, "/s/1/close", **close)  # after the reopen
    assert replayed.status_code == 400
    assert "closed or reopened meanwhile" in error_line(replayed.text)
    table = nap.json("table --json")
    assert table["closes"] == 1 and not table["session"]["closed"]


def test_a_deal_posted_again_after_its_undo_does_not_say_it_was_recorded(client, nap, evening):
    fields = {**shown(client, "hand"), "bid": "misere", "by": "Dan", "result": "made"}
    assert post(client, "/s/1/hand", **fields).status_code == 303
    post(client, "/s/1/undo", **shown(client, "undo"))
    again = post(client, "/s/1/hand", **fields)
    assert again.status_code == 400
    assert error_line(again.text) == "Error: deal 3 was voided meanwhile; nothing changed"
    assert nap.json("table --json")["hands"] == 2
