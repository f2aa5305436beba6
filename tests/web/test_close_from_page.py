"""Closing and reopening from the scorekeeper's page (README, "Scorekeeper's link"):
asked first as `close` asks, done only as agreed, and the same money as `close`."""

from __future__ import annotations

import html
import re

from tests.web.conftest import KEY, keeper_key
from tests.web.test_pages import error_line, without_option


def post(client, path: str, **data: str):
    return client.post(path, data={"key": KEY, **data}, follow_redirects=False)


def asked(client, pot: str) -> tuple[str, str]:
    page = post(client, "/s/1/closing", pot=pot)
    assert page.status_code == 200, page.text
    question = re.search(r'<p class="question">(.*?)</p>', page.text).group(1)
    seen = re.search(r'name="seen" value="([^"]+)"', page.text).group(1)
    return html.unescape(question), seen


def evening(nap, name: str) -> None:
    nap(f"new {name} --players Ann,Ben,Cat")
    nap(f"hand 3 --by Ann --tricks 3 --peep Ben --peep Cat --session {name}")  # pot: 2


def test_a_split_asked_then_agreed_pays_what_close_pays(client, nap):
    evening(nap, "fri")
    evening(nap, "twin")
    question, seen = asked(client, "split")
    assert question.startswith("Close fri? No more deals can be recorded; the pot (2 chips)")
    assert nap.json("table --json --session fri")["session"]["closed"] is False  # only asked
    answer = post(client, "/s/1/close", pot="split", seen=seen)
    assert answer.status_code == 303
    assert "Session+fri+closed.+Pot%3A" in answer.headers["location"]
    nap("close --pot split --yes --session twin")
    fri, twin = (nap.json(f"table --json --session {s}") for s in ("fri", "twin"))
    assert fri["session"]["closed"] and fri["players"] == twin["players"]
    assert fri["pot"] == twin["pot"] == 0


def test_a_deal_recorded_after_the_question_stops_the_close(client, nap):
    evening(nap, "fri")
    _question, seen = asked(client, "split")
    nap("hand 3 --by Ben --tricks 3 --peep Ann")  # from a terminal, meanwhile: pot 3
    answer = post(client, "/s/1/close", pot="split", seen=seen)
    assert answer.status_code == 400
    line = error_line(answer.text)
    assert line.startswith("Error: the session changed since you were asked, so it was not closed")
    assert "the pot (3 chips)" in line
    assert nap.json("table --json")["session"]["closed"] is False


def test_the_pot_to_a_player_or_carried_and_a_close_taken_back(client, nap):
    evening(nap, "fri")
    question, seen = asked(client, "Cat")
    assert "the pot (2 chips) goes to Cat +2" in question
    assert post(client, "/s/1/close", pot="Cat", seen=seen).status_code == 303
    assert "Reopen fri" in client.get(f"/s/1/keep?key={KEY}").text
    answer = post(client, "/s/1/reopen")
    assert answer.status_code == 303 and "reopened" in answer.headers["location"]
    assert nap.json("table --json")["session"]["closed"] is False
    _question, seen = asked(client, "carry")
    assert post(client, "/s/1/close", pot="carry", seen=seen).status_code == 303
    assert nap.json("table --json")["pot"] == 2  # carried: it stays for the next session


def test_a_pot_choice_the_session_refuses_gets_closes_own_message(client, nap):
    evening(nap, "fri")
    answer = post(client, "/s/1/closing", pot="Zed")
    assert answer.status_code == 400
    assert error_line(answer.text) == without_option(nap.fails("close --pot Zed --yes"))


def test_only_this_sessions_keeper_closes_or_reopens_it(client, nap):
    evening(nap, "fri")
    evening(nap, "sat")
    _question, seen = asked(client, "split")
    for path in ("/s/1/closing", "/s/1/close", "/s/1/reopen"):
        answer = client.post(path, data={"key": keeper_key(2), "pot": "split", "seen": seen})
        assert answer.status_code == 403, path
    assert nap.json("table --json --session fri")["session"]["closed"] is False
