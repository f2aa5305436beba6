"""The keeper's writes are one route per action, each reading only its own fields; what
no route serves is our own page, never FastAPI's JSON or a traceback."""

from __future__ import annotations

import re

import pytest
from starlette.routing import Route

from napledger.web import downloads, keeper, organiser, streams, viewers
from tests.web import test_pages as pages
from tests.web.conftest import KEY
from tests.web.test_pages import error_line, post

evening = pages.evening  # Ann, Ben, Cat, Dan and two deals

ROUTERS = (viewers, keeper, organiser, streams, downloads)  # what create_app includes
ACTIONS = ("hand", "pass", "amend", "void", "undo", "join", "leave")


def test_each_action_has_its_own_route_and_none_takes_the_action_as_a_parameter():
    routes = [r for module in ROUTERS for r in module.router.routes]
    posts = {r.path for r in routes if isinstance(r, Route) and "POST" in (r.methods or ())}
    assert {f"/s/{{session}}/{a}" for a in ACTIONS} <= posts
    assert not any("{action}" in path for path in posts)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("post", "/s/1/explode", 404),  # no such action
        ("post", "/s/1/hand/again", 404),
        ("get", "/s/1/hand", 405),  # an action, asked for as a page
        ("post", "/s/1/json", 405),
        ("post", "/s/1/keep", 405),
    ],
)
def test_what_no_route_serves_is_our_own_page(client, evening, method, path, status):
    answer = getattr(client, method)(path, **({"data": {"key": KEY}} if method == "post" else {}))
    assert answer.status_code == status
    assert answer.headers["content-type"].startswith("text/html")
    assert "<h1>" in answer.text and "detail" not in answer.text and "Traceback" not in answer.text
    assert answer.headers["content-security-policy"].startswith("default-src 'none'")


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"])
def test_no_api_schema_or_docs_are_served(client, path):
    assert client.get(path).status_code == 404


def test_a_field_of_another_action_is_not_read(client, nap, evening):
    # A pass carries no bid: one posted along is not the pass's to read, and nothing
    # of the deal form reaches join.
    assert post(client, "/s/1/pass", next_deal="3", bid="nap", by="Ann").status_code == 303
    last = nap.json("hands --json")[-1]
    assert (last["number"], last["bid"], last["bidder"]) == (3, None, None)
    assert post(client, "/s/1/join", player="Eve", bid="nap", tricks="x").status_code == 303
    assert "Eve" in [p["name"] for p in nap.json("table --json")["players"]]


def test_a_refused_pass_keeps_its_peeps_and_note(client, nap, evening):
    nap("hand nap --by Cat --tricks 5")  # deal 3, typed in a terminal meanwhile
    answer = post(client, "/s/1/pass", next_deal="3", peep=["Ben"], note="dealt twice")
    assert answer.status_code == 400
    assert error_line(answer.text).startswith("Error: deal 3 was recorded meanwhile")
    assert re.search(r'name="peep" value="Ben" checked', answer.text)
    assert 'value="dealt twice"' in answer.text


def test_a_refused_void_comes_back_as_that_deals_form_as_it_is_now(client, nap, evening):
    form = {"number": "1", "revision": "1"}
    nap("amend 1 --tricks 4")  # now 1.2
    answer = post(client, "/s/1/void", **form)
    assert answer.status_code == 400
    assert error_line(answer.text) == (
        "Error: deal 1 was amended to 1.2 meanwhile; nothing was voided"
    )
    assert "Amending deal 1.2" in answer.text
    revision = re.search(r'name="revision" value="(\d+)"', answer.text)
    assert revision and revision.group(1) == "2"  # the next tap voids what is there now


def test_a_number_that_does_not_parse_is_refused_with_everything_tapped(client, nap, evening):
    answer = post(client, "/s/1/amend", number="1", revision="x", full="1", bid="nap", by="Ann")
    assert answer.status_code == 400
    assert "wants a whole number" in error_line(answer.text)
    assert "Amending deal 1" in answer.text
    assert re.search(r'name="by" value="Ann" checked', answer.text)
    assert len(nap.json("hands --json")) == 2
