"""Every route, refusal and status code of the web app, through FastAPI's test client."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from napledger.service import page as read
from napledger.service.api import Database
from napledger.web.app import create_app
from tests.web.conftest import HOSTILE, KEY, SECRET, keeper_key
from tests.web.conftest import board as page_board


@pytest.fixture
def evening(nap):
    nap.start_from(
        "new fri --players Ann,Ben,Cat,Dan --chip 0.05 --currency GBP",
        "hand nap --by Ann --tricks 5",
        "hand 3 --by Ben --failed",
    )
    return 1


def post(client: TestClient, path: str, **data):
    return client.post(path, data={"key": KEY, **data}, follow_redirects=False)


def error_line(html: str) -> str:
    found = re.search(r'<p class="error"[^>]*>(.*?)</p>', html, re.S)
    assert found, html
    import html as h

    return h.unescape(found.group(1))


def without_option(cli_line: str) -> str:
    """The terminal's refusal without the option it points at (`(--by)`): the page
    points at its field by drawing the line beside it instead."""
    return re.sub(r" \(--[^)]*\)$", "", cli_line)


# --- reading ------------------------------------------------------------------------


def test_the_list_of_sessions_links_to_each(client, nap, evening):
    nap("new sat --players A,B,C")
    page = client.get("/")
    assert page.status_code == 200
    assert 'href="/s/1"' in page.text and ">fri</a>" in page.text
    assert 'href="/s/2"' in page.text and "current" in page.text


def test_no_database_yet_is_a_page_not_an_error(client):
    page = client.get("/")
    assert page.status_code == 200
    assert "No sessions yet" in page.text


def test_the_viewers_page_shows_the_scoreboard_with_signs_pot_dealer_and_deals(
    client, nap, evening
):
    page = client.get("/s/1")
    assert page.status_code == 200
    rows = re.findall(r'data-player="([^"]+)" data-chips="(-?\d+)"', page.text)
    assert {name: int(chips) for name, chips in rows} == nap.chips()
    assert "+1.65 GBP" in page.text and "-0.95 GBP" in page.text  # signs, not only colour
    assert 'id="pot" data-chips="0"' in page.text
    assert '<b id="next-dealer">Cat</b>' in page.text
    assert 'data-deal="2"' in page.text and "Ben three · failed" in page.text
    assert "Ben -9" in page.text  # what each paid
    assert "<polyline" in page.text  # the running balance chart
    assert "If we stopped now" in page.text and "→ Ann: " in page.text
    assert "<form" not in page.text  # viewers get no way to write


def test_money_on_the_page_has_the_places_the_cli_gives_it(client, nap):
    # Whole chips in a currency with pence: the CLI shows 20.00; the page showed 20.
    nap("new w --players Ann,Ben,Cat --currency GBP")
    nap("hand nap --by Ann --tricks 5")
    page = client.get("/s/1").text
    table = {p["name"]: p["money"] for p in nap.json("table --json")["players"]}
    assert table == {"Ann": "20.00", "Ben": "-10.00", "Cat": "-10.00"}
    assert "+20.00 GBP" in page and "-10.00 GBP" in page
    plan = nap.json("settle --json")["transfers"]
    assert [p["money"] for p in plan] == ["10.00", "10.00"]
    assert ": 10.00 GBP</li>" in page


def test_every_page_sends_a_content_security_policy_and_loads_nothing_from_elsewhere(
    client, evening
):
    for path in ("/", "/s/1", f"/s/1/keep?key={KEY}", "/s/99"):
        page = client.get(path)
        policy = page.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "default-src 'none'" in policy
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["referrer-policy"] == "same-origin"
        assert "http://" not in page.text and "https://" not in page.text
        assert "<script>" not in page.text and " on" + "click" not in page.text


def test_static_files_are_served_from_the_package(client):
    assert client.get("/static/nap.js").status_code == 200
    css = client.get("/static/nap.css")
    assert css.status_code == 200 and "text/css" in css.headers["content-type"]


def test_an_unknown_or_malformed_session_is_a_clean_404_or_400(client, evening):
    missing = client.get("/s/99")
    assert missing.status_code == 404 and "no session &#39;99&#39;" in missing.text
    assert client.get("/s/friday").status_code == 400
    assert client.get("/nowhere").status_code == 404


def test_a_hostile_name_is_shown_as_text(client, nap):
    nap(f"new fri --players Ann,Ben,'{HOSTILE}'")
    nap(f"hand nap --by '{HOSTILE}' --made")
    for path in ("/s/1", f"/s/1/keep?key={KEY}"):
        page = client.get(path).text
        assert HOSTILE not in page
        assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_a_bug_shows_a_plain_500_without_a_traceback(client, evening, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("secret internals at /home/x")

    monkeypatch.setattr(read, "board", broken)
    page = client.get("/s/1")
    assert page.status_code == 500
    assert "Traceback" not in page.text and "secret internals" not in page.text
    assert "Something went wrong" in page.text
    # Starlette sends this page outside the middleware: it must still carry the headers.
    assert page.headers["content-security-policy"].startswith("default-src 'none'")
    assert page.headers["x-frame-options"] == "DENY"


def test_an_overflowing_since_is_a_clean_400(client, evening):
    answer = client.get("/s/1/events", params={"since": "9" * 23})
    assert answer.status_code == 400 and "Traceback" not in answer.text
    assert client.get("/s/1/events", params={"since": "-1"}).status_code == 400


def test_only_the_servers_own_names_are_answered_against_dns_rebinding(evening):
    app = create_app(None, SECRET, hosts=("127.0.0.1", "localhost", "192.168.1.20"))
    with TestClient(app, base_url="http://127.0.0.1:8421") as c:
        assert c.get("/s/1").status_code == 200
        assert c.get("/s/1", headers={"host": "192.168.1.20:8421"}).status_code == 200
        rebound = c.get("/s/1", headers={"host": "evil.example:8421"})
        assert rebound.status_code == 400 and "Ann" not in rebound.text
        assert rebound.headers["x-frame-options"] == "DENY"


# --- who may write --------------------------------------------------------------------


def test_the_scorekeepers_page_needs_the_secret(client, evening):
    assert client.get("/s/1/keep").status_code == 403
    assert client.get("/s/1/keep?key=wrong").status_code == 403
    page = client.get(f"/s/1/keep?key={KEY}")
    assert page.status_code == 200
    assert '<form method="post" action="/s/1/hand"' in page.text
    assert page.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("action", ["hand", "pass", "undo", "amend", "join", "leave"])
def test_every_write_without_the_secret_is_403_and_changes_nothing(client, nap, evening, action):
    before = nap.json("hands --json"), nap.json("table --json")
    form = {"bid": "nap", "by": "Cat", "result": "made", "player": "Eve"}
    for key in (None, "", "wrong", KEY + "x"):
        data = dict(form) if key is None else {**form, "key": key}
        answer = client.post(f"/s/1/{action}", data=data, follow_redirects=False)
        assert answer.status_code == 403, (action, key)
    assert (nap.json("hands --json"), nap.json("table --json")) == before


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
    ],
)
def test_a_cross_site_post_is_refused_even_with_the_secret(client, nap, evening, headers):
    answer = client.post("/s/1/pass", data={"key": KEY}, headers=headers, follow_redirects=False)
    assert answer.status_code == 403
    assert nap.json("table --json")["hands"] == 2


def test_a_same_origin_post_from_the_page_is_accepted(client, nap, evening):
    answer = client.post(
        "/s/1/pass",
        data={"key": KEY},
        headers={"origin": "http://testserver", "sec-fetch-site": "same-origin"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert nap.json("table --json")["hands"] == 3


def test_writes_are_posts_only(client, evening):
    assert client.get(f"/s/1/pass?key={KEY}").status_code == 405


def test_an_unknown_action_is_404(client, nap, evening):
    assert post(client, "/s/1/explode").status_code == 404


# --- deal entry: the CLI's calls and messages -------------------------------------------


def test_recording_a_deal_redirects_to_the_scorekeeper_and_is_in_hands_json(client, nap, evening):
    answer = post(client, "/s/1/hand", bid="misere", by="Dan", result="made")
    assert answer.status_code == 303
    assert answer.headers["location"].startswith(f"/s/1/keep?key={KEY}&said=Deal+3")
    last = nap.json("hands --json")[-1]
    assert (last["number"], last["bid"], last["bidder"], last["outcome"]) == (
        3,
        "misère",
        "Dan",
        "made",
    )
    assert "Deal 3 recorded: " in client.get(answer.headers["location"]).text


def test_tricks_revoke_and_peeps_go_through_as_the_cli_takes_them(client, nap):
    nap("new box --players Ann,Ben,Cat,Dan")
    page = client.get(f"/s/1/keep?key={KEY}").text
    assert 'name="peep"' in page and 'name="buy"' in page
    answer = client.post(
        "/s/1/hand",
        data={
            "key": KEY,
            "bid": "4",
            "by": "ben",
            "tricks": "4",
            "peep": ["Cat"],
            "buyer": ["Ann", "Ben", "Cat", "Dan"],
            "buy": ["2", "", "", ""],
        },
        follow_redirects=False,
    )
    assert answer.status_code == 303, error_line(answer.text)
    deal = nap.json("hands --json")[-1]
    assert (deal["bid"], deal["bidder"], deal["tricks"]) == ("four", "Ben", 4)
    assert deal["peeps"] == ["Cat"] and deal["buys"] == {"Ann": 2}
    post(client, "/s/1/hand", bid="3", by="Cat", revoke="Dan")
    assert nap.json("hands --json")[-1]["outcome"] == "revoke by Dan"


def test_the_form_offers_peeps_and_buys_where_the_rules_allow_them_not_by_the_fee(client, nap):
    # Seven-card: no peeping and no exchange, though both fees are 1.
    nap("new seven --players A,B,C --variant seven-card")
    page = client.get(f"/s/1/keep?key={KEY}").text
    assert 'name="peep"' not in page and 'name="buy"' not in page
    assert 'name="bidder_bought"' not in page
    # Russian (docs/rules.md, example 15): no peeping; only the bidder may buy, one card,
    # free (the fee is 0): one box, the bidder's, not one a player.
    nap("new russian --players A,B,C --variant russian")
    page = client.get(f"/s/2/keep?key={keeper_key(2)}").text
    assert 'name="peep"' not in page and 'name="buy"' not in page
    assert page.count('name="bidder_bought"') == 1
    assert "the bidder bought a card" in page
    answer = client.post(
        "/s/2/hand",
        data={"key": keeper_key(2), "bid": "3", "by": "B", "tricks": "3", "bidder_bought": "1"},
        follow_redirects=False,
    )
    assert answer.status_code == 303, error_line(answer.text)
    assert nap.json("hands --json --session russian")[-1]["buys"] == {"B": 1}
    # The bidder's card with no bidder named: the CLI's own words for the missing bidder.
    nobody = client.post("/s/2/hand", data={"key": keeper_key(2), "bid": "3", "bidder_bought": "1"})
    assert error_line(nobody.text) == "Error: say who bid"
    # Free peeping is still peeping: a fee of 0 does not take the choice away.
    nap("new free --players A,B,C --rule peep_fee=0")
    assert 'name="peep"' in client.get(f"/s/3/keep?key={keeper_key(3)}").text


def test_who_may_peep_and_buy_follows_the_settings(client, nap):
    # A dealer who may never look is not offered a peep; buying only at a small table:
    # five dealt in is past purchase_max_dealt=4, so no box at all.
    nap("new big --players A,B,C,D,E --rule dealer_peeps=never --rule purchase_max_dealt=4")
    page = client.get(f"/s/1/keep?key={KEY}").text
    assert re.findall(r'name="peep" value="([^"]+)"', page) == ["B", "C", "D", "E"]
    assert 'name="buy"' not in page
    # Four dealt in: everyone dealt in gets a box, the dealer too.
    nap("new small --players A,B,C,D --rule purchase_max_dealt=4")
    page = client.get(f"/s/2/keep?key={keeper_key(2)}").text
    assert re.findall(r'name="buyer" value="([^"]+)"', page) == ["A", "B", "C", "D"]


def test_a_purchase_the_rules_refuse_gets_the_cores_message(client, nap):
    nap("new russian --players A,B,C --variant russian")
    form = {"key": KEY, "bid": "3", "by": "B", "tricks": "3", "buyer": ["A", "B", "C"]}
    answer = client.post("/s/1/hand", data=form | {"buy": ["1", "", ""]})
    assert answer.status_code == 400
    assert error_line(answer.text) == without_option(
        nap.fails("hand 3 --by B --tricks 3 --buy A=1")
    )
    zero = client.post("/s/1/hand", data=form | {"buy": ["", "0", ""]})
    assert error_line(zero.text) == without_option(nap.fails("hand 3 --by B --tricks 3 --buy B=0"))
    assert nap.json("table --json")["hands"] == 0


@pytest.mark.parametrize(
    ("form", "cli"),
    [
        ({"bid": "nap", "by": "Zed", "result": "made"}, "hand nap --by Zed --made"),
        ({"bid": "grand", "by": "Ann", "result": "made"}, "hand grand --by Ann --made"),
        ({"bid": "nap", "by": "Ann", "tricks": "9"}, "hand nap --by Ann --tricks 9"),
        (
            {"bid": "nap", "by": "Ann", "tricks": "3", "result": "made"},
            "hand nap --by Ann --tricks 3 --made",
        ),
        ({"bid": "nap", "by": "Ann"}, "hand nap --by Ann"),
        ({"bid": "nap", "result": "made"}, "hand nap --made"),
    ],
)
def test_a_refused_deal_says_what_the_cli_says_and_changes_nothing(client, nap, evening, form, cli):
    before = nap.json("hands --json")
    answer = post(client, "/s/1/hand", **form)
    assert answer.status_code == 400
    assert error_line(answer.text) == without_option(nap.fails(cli))
    assert nap.json("hands --json") == before
    assert 'id="deal"' in answer.text  # the form is still there to try again


def test_tricks_are_digits_0_to_9_by_the_cli_rule(client, nap, evening):
    answer = post(client, "/s/1/hand", bid="nap", by="Ann", tricks="٣")
    assert answer.status_code == 400
    cli = nap.fails("hand nap --by Ann --tricks ٣", code=2)  # Typer's usage error
    assert cli.endswith(": wants a whole number in digits 0-9, like 3, not '٣'")
    # The page has no flags: it names the field in words.
    assert (
        error_line(answer.text)
        == "Error: tricks taken wants a whole number in digits 0-9, like 3, not '٣'"
    )
    bought = client.post(
        "/s/1/hand",
        data={"key": KEY, "bid": "3", "by": "Ann", "tricks": "3", "buyer": ["Ben"], "buy": ["x"]},
    )
    assert error_line(bought.text) == (
        "Error: cards bought by Ben wants a whole number in digits 0-9, like 3, not 'x'"
    )


def test_a_deal_needs_a_bidder_in_the_words_the_cli_uses(client, nap, evening):
    answer = post(client, "/s/1/hand", bid="nap", result="made")
    assert answer.status_code == 400
    assert nap.fails("hand nap --made") == "Error: say who bid (--by)"
    assert error_line(answer.text) == "Error: say who bid"


def test_a_deal_needs_a_bid(client, nap, evening):
    answer = post(client, "/s/1/hand", by="Ann", result="made")
    assert answer.status_code == 400
    assert "choose a bid" in error_line(answer.text)


def test_pass_undo_and_amend_do_what_the_commands_do(client, nap, evening):
    assert post(client, "/s/1/pass").status_code == 303
    assert nap.json("hands --json")[-1]["outcome"] == "passed out"
    assert post(client, "/s/1/undo").status_code == 303
    assert nap.json("table --json")["hands"] == 2
    assert post(client, "/s/1/amend", number="2", result="made").status_code == 303
    live = [d for d in nap.json("hands --json") if d["status"] == "live"]
    assert (live[-1]["number"], live[-1]["revision"], live[-1]["outcome"]) == (2, 2, "made")
    same = post(client, "/s/1/amend", number="2", result="made")
    assert same.status_code == 400
    assert error_line(same.text) == nap.fails("amend 2 --made")
    missing = post(client, "/s/1/amend", number="9", result="made")
    assert error_line(missing.text) == nap.fails("amend 9 --made")


def test_undo_voids_the_deal_the_keeper_saw_not_one_recorded_since(client, nap, evening):
    # The keeper's page said "Undo deal 2"; meanwhile a CLI `hand` recorded deal 3.
    nap("hand nap --by Cat --tricks 5")
    before = nap.json("hands --json")
    answer = post(client, "/s/1/undo", number="2")
    assert answer.status_code == 400
    assert "deal 2 is not the last deal" in error_line(answer.text)
    assert nap.json("hands --json") == before  # deal 3 is still there
    assert post(client, "/s/1/undo", number="3").status_code == 303
    assert nap.json("table --json")["hands"] == 2


def test_the_undo_button_posts_the_deal_it_names(client, evening):
    page = client.get(f"/s/1/keep?key={KEY}").text
    form = re.search(r'<form[^>]*action="/s/1/undo".*?</form>', page, re.S)
    assert form and 'name="number" value="2"' in form.group(0) and "Undo deal 2" in form.group(0)


def test_amend_and_undo_on_an_empty_session_are_refused_cleanly(client, nap):
    nap("new empty --players A,B,C")
    assert error_line(post(client, "/s/1/undo").text) == nap.fails("undo")
    assert post(client, "/s/1/amend", result="made").status_code == 400  # no deal to name


def test_join_and_leave_seat_players_as_the_commands_do(client, nap, evening):
    assert post(client, "/s/1/join", player="Eve", after="Ann").status_code == 303
    assert nap.json("table --json")["players"][-1]["name"] == "Eve"
    answer = post(client, "/s/1/join", player="Eve")
    assert error_line(answer.text) == "Error: Eve is already seated"
    assert post(client, "/s/1/leave", player="Ben").status_code == 303
    page = client.get("/s/1").text
    assert '<tr data-player="Ben" data-chips="-19" class="gone">' in page
    assert post(client, "/s/1/leave").status_code == 400


def test_a_closed_session_refuses_writes_and_shows_its_settlement(client, nap, evening):
    nap("close --pot split")
    answer = post(client, "/s/1/pass")
    assert answer.status_code == 400
    assert error_line(answer.text) == nap.fails("pass")
    page = client.get("/s/1").text
    assert "Settling up" in page and "closed" in page
    assert 'id="deal"' not in client.get(f"/s/1/keep?key={KEY}").text


def test_a_database_file_replaced_under_the_server_is_refused_not_written(client, nap, db_path):
    """A backup restored over the file while the server runs: no deal goes astray."""
    import shutil

    nap("new fri --players Ann,Ben,Cat")
    nap("hand nap --by Ann --made")
    assert client.get("/s/1").status_code == 200  # the server has opened the file
    shutil.copy(db_path, db_path.with_name("backup.db"))
    db_path.with_name("backup.db").replace(db_path)  # same content, another file
    answer = post(client, "/s/1/pass")
    assert answer.status_code == 400
    assert "is no longer the database file opened at the start" in answer.text
    assert nap.json("table --json")["hands"] == 1


def test_the_chart_ends_where_the_scoreboard_stands_after_a_close_shares_the_pot(client, nap):
    nap("new box --players Ann,Ben,Cat --variant russian")
    nap("hand nap --by Ann --failed")  # a failed napoleon feeds the box
    nap("close --pot split --yes")
    chips = nap.chips()
    with Database() as database:
        board = page_board(database, 1)
    assert {name: values[-1] for name, values in board.series if name != "pot"} == chips
    # The box has its own line: 0, fed by the failed napoleon, then shared out at the close.
    box = dict(board.series)["pot"]
    assert box[0] > 0 and box[-1] == 0 and board.steps[-1] == "close"
    page = client.get("/s/1").text
    legend = dict(re.findall(r'stroke-dasharray="[^"]*"/></svg>(\S+) ([+-]?\d+)</li>', page))
    assert {name: int(value) for name, value in legend.items() if name != "pot"} == chips
    assert int(legend["pot"]) == 0


def test_a_deal_line_on_the_page_is_the_clis_with_peeps_and_buys(client, nap, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # hands on one line a row
    nap("new box --players Ann,Ben,Cat,Dan")
    nap("hand 3 --by Ben --tricks 3 --peep Cat --buy Ann=2 --note 'late'")
    row = "made (3 tricks); Cat peeped; Ann bought 2 — late"  # the read model's row text
    hands = " ".join(nap("hands").stdout.replace("│", " ").split())
    assert row in hands
    page = " ".join(html.unescape(client.get("/s/1").text).split())
    assert f"<b>1</b> Ann · Ben three · {row}" in page


def test_join_and_leave_without_a_name_get_the_apis_words(client, nap, evening):
    for action in ("join", "leave"):
        answer = post(client, f"/s/1/{action}", player=" ")
        assert answer.status_code == 400
        assert error_line(answer.text) == "Error: a player name cannot be empty"


def test_the_form_offers_only_players_dealt_in_not_the_dealer_who_sits_out(client, nap):
    nap("new six --players Ann,Ben,Cat,Dan,Eve,Fay")  # classic: the dealer sits out from 6
    page = client.get(f"/s/1/keep?key={KEY}").text
    assert '<b id="next-dealer">Ann</b>' in page
    for field in ("by", "revoke", "peep"):
        offered = re.findall(rf'name="{field}" value="([^"]+)"', page)
        assert offered == ["Ben", "Cat", "Dan", "Eve", "Fay"], field
    # Five dealt in: past classic's purchase_max_dealt of 4, so nobody is offered a box.
    assert 'name="buyer"' not in page
    # Said before any bid, where the keeper looks first (docs/rules.md: six or more seated).
    upcoming = re.search(r'<p class="upcoming" id="upcoming">(.*?)</p>', page)
    assert upcoming is not None
    assert (
        re.sub("<[^>]+>", "", upcoming[1])
        == "Deal 1 · Next to deal: Ann, who sits out: no cards, no bid"
    )
    assert page.index('id="upcoming"') < page.index('name="bid"')
    nap("new five --players Ann,Ben,Cat,Dan,Eve")  # five seated: the dealer plays
    five = client.get(f"/s/2/keep?key={keeper_key(2)}").text
    assert "sits out" not in five and re.findall(r'name="by" value="([^"]+)"', five)[0] == "Ann"
    # join after, leave, and the pot to Ann at the close
    assert re.findall(r'<option value="([^"]+)">', page).count("Ann") == 3


def test_the_chart_leaves_a_gap_while_a_player_is_not_at_the_table(nap):
    nap("new fri --players Ann,Ben,Cat")
    nap("hand 3 --by Ann --tricks 3")
    nap("join Dan")
    nap("hand 3 --by Ben --tricks 3")
    nap("leave Ann")
    nap("hand 3 --by Cat --tricks 3")
    with Database() as database:
        board = page_board(database, 1)
    series = dict(board.series)
    assert series["Dan"][0] is None and series["Dan"][1] is not None  # joined for deal 2
    assert series["Ann"][2] is None  # gone for deal 3: no line, though her money stays
    assert board.steps == ("1", "2", "3")


def test_the_pages_json_is_the_command_lines_own(client, nap):
    nap("new fri --players Ann,Ben,Cat --chip 0.10 --currency GBP")
    nap("hand 3 --by Ann --tricks 3 --peep Ben")
    nap("hand nap --by Cat --failed")
    document = client.get("/s/1/json")
    assert document.headers["content-type"] == "application/json"
    shown = document.json()
    # The timeline: the rows hands lists (tests/test_front_ends_agree.py compares them).
    assert [row["label"] for row in shown.pop("timeline")] == ["1", "2"]
    assert shown == {
        "table": nap.json("table --json"),
        "hands": nap.json("hands --json"),
        "settle": nap.json("settle --json"),
    }
    assert client.get("/s/9/json").status_code == 404


def test_each_sessions_json_is_its_own_command_line_documents_after_a_whole_evening(client, nap):
    # Everything that reaches the documents: a correction, a void, a join and a leave, a
    # close with its shares and a pot carried into the next session, which is still open.
    nap("new fri --players Ann,Ben,Cat,Dan --chip 0.05 --currency GBP")
    nap("hand nap --by Ann --tricks 5")
    nap("hand 3 --by Ben --failed --peep Cat")
    nap("amend 2 --made")
    nap("join Eve --after Ben")
    nap("hand misere --by Eve --made")
    nap("void 1")
    nap("leave Dan")
    nap("pass")
    nap("close --pot carry --yes")
    nap("new sat --players Ann,Ben,Cat --carry-from fri")
    nap("hand 3 --by Cat --tricks 3")
    for session, name in ((1, "fri"), (2, "sat")):
        document = client.get(f"/s/{session}/json").json()
        timeline = document.pop("timeline")
        assert [r["label"] for r in timeline if r["kind"] == "deal"] == [
            d["label"] for d in document["hands"]
        ]
        assert document == {
            command: nap.json(f"{command} --json --session {name}")
            for command in ("table", "hands", "settle")
        }, name
    missing = client.get("/s/9/json")
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")


def test_the_pages_json_is_drawn_from_the_kept_history_and_follows_each_change(nap, evening):
    """`/s/N/json` costs the evening once, then only what is new (#37)."""
    from fastapi.testclient import TestClient

    app = create_app(None, "test-secret-key")
    with TestClient(app) as client:
        first = client.get("/s/1/json").json()
        again = client.get("/s/1/json").json()
        assert first == again and first["table"]["hands"] == 2
        nap("hand misere --by Dan --made")
        third = client.get("/s/1/json").json()
        assert third["table"]["hands"] == 3 and third["hands"][-1]["number"] == 3
        assert app.state.site.kept_for(1).full_reads == 1  # read once, then extended
