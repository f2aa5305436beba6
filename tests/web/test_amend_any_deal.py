"""Any deal can be corrected from the keeper's page: picked from the list of deals, then
the same form as a new deal's, filled in with what the deal says (docs/rules.md, amend)."""

from __future__ import annotations

import html
import re

from napledger.service.api import Database
from tests.web.conftest import KEY, board
from tests.web.test_pages import error_line, post, without_option


def live(nap) -> list[dict]:
    return [d for d in nap.json("hands --json") if d["status"] == "live"]


def checked(page: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]+)" checked', page)


def hidden(page: str) -> dict[str, str]:
    form = re.search(r'<form[^>]*id="deal".*?</form>', page, re.S)
    assert form, page
    fields = re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', form[0])
    return {name: html.unescape(value) for name, value in fields if name not in ("key", "buyer")}


def test_an_earlier_deal_is_picked_from_the_list_and_its_form_comes_filled_in(client, nap):
    nap("new fri --players Ann,Ben,Cat,Dan")
    nap("hand 3 --by Ben --tricks 2 --peep Cat --buy Dan=2 --note 'late start'")
    nap("hand nap --by Ann --made")
    nap("hand misere --by Dan --failed")
    page = client.get(f"/s/1/keep?key={KEY}").text
    picks = re.findall(r'<button type="submit" name="amend" value="(\d+)"', page)
    assert picks == ["3", "2", "1"]  # every deal listed, not only the last
    form = client.get(f"/s/1/keep?key={KEY}&amend=1").text
    assert "Amending deal 1" in form
    assert hidden(form) == {"number": "1", "revision": "1", "full": "1"}
    assert checked(form, "bid") == ["three"] and checked(form, "by") == ["Ben"]
    assert checked(form, "result") == ["2"] and checked(form, "peep") == ["Cat"]
    assert re.search(
        r'value="Dan"><span>Dan</span><input type="number" name="buy"[^>]*value="2"', form
    )
    assert 'name="note" maxlength="200" value="late start"' in form
    # Changed as a whole: Cat's peep untapped, Dan's purchase cleared, the note emptied.
    answer = post(
        client, "/s/1/amend", **hidden(form), bid="three", by="Ben", result="made", note=""
    )
    assert answer.status_code == 303, error_line(answer.text)
    deals = live(nap)
    assert (deals[0]["number"], deals[0]["revision"]) == (1, 2)
    assert (deals[0]["outcome"], deals[0]["peeps"], deals[0]["buys"], deals[0]["note"]) == (
        "made",
        [],
        {},
        None,
    )
    assert [d["bid"] for d in deals[1:]] == ["nap", "misère"]  # later deals stay
    with Database() as database:  # the chart names deal 1 by its number, as the workbook
        assert board(database, 1).steps == ("1", "2", "3")


def test_a_refused_correction_keeps_the_deals_form_and_what_was_tapped(client, nap):
    nap("new fri --players Ann,Ben,Cat,Dan")
    nap("hand 3 --by Ben --tricks 2")
    nap("hand nap --by Ann --made")
    form = hidden(client.get(f"/s/1/keep?key={KEY}&amend=1").text)
    answer = post(client, "/s/1/amend", **form, bid="nap", by="Cat", tricks="5", result="made")
    assert answer.status_code == 400
    assert error_line(answer.text) == without_option(
        nap.fails("amend 1 nap --by Cat --tricks 5 --made")
    )
    assert "Amending deal 1" in answer.text
    assert checked(answer.text, "bid") == ["nap"] and checked(answer.text, "by") == ["Cat"]
    assert live(nap)[0]["bidder"] == "Ben" and len(nap.json("hands --json")) == 2


def test_a_picked_deal_is_voided_at_the_version_shown(client, nap):
    nap("new fri --players Ann,Ben,Cat,Dan")
    nap("hand 3 --by Ben --tricks 2")
    nap("hand nap --by Ann --made")
    form = hidden(client.get(f"/s/1/keep?key={KEY}&amend=1").text)
    nap("amend 1 --tricks 3")  # meanwhile, in a terminal: now 1.2
    stale = post(client, "/s/1/void", **form)
    assert stale.status_code == 400
    assert (
        error_line(stale.text) == "Error: deal 1 was amended to 1.2 meanwhile; nothing was voided"
    )
    fresh = hidden(client.get(f"/s/1/keep?key={KEY}&amend=1").text)
    done = post(client, "/s/1/void", **fresh)
    assert done.status_code == 303
    assert "Deal 1 voided." in client.get(done.headers["location"]).text
    assert nap.json("table --json")["hands"] == 1
    # A deal that is not there: said beside the usual form, nothing else.
    gone = client.get(f"/s/1/keep?key={KEY}&amend=1")
    assert "voided and stays so" in error_line(gone.text) and 'action="/s/1/hand"' in gone.text
