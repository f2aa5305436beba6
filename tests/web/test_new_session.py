"""Starting a session from the organiser's link (README, "Organiser's link"): the form
`new` would take, with `new`'s checks and messages, and the two links it gives back."""

from __future__ import annotations

import re

from napledger.web.keys import organiser_key
from tests.web.conftest import SECRET, keeper_key
from tests.web.test_pages import error_line

ORGANISER = organiser_key(SECRET)


def start(client, **fields: str):
    return client.post("/new", data={"key": ORGANISER, **fields})


def test_the_form_offers_the_games_and_only_the_chosen_games_settings(client):
    page = client.get("/new", params={"key": ORGANISER, "game": "russian"})
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-store"
    offered = set(re.findall(r'name="rule\.([a-z_]+)"', page.text))
    assert "revoke_fine" in offered
    assert not offered & {"peep_fee", "purchase_fee", "pool"}  # russian has none of them
    classic = set(
        re.findall(r'name="rule\.([a-z_]+)"', client.get("/new", params={"key": ORGANISER}).text)
    )
    assert {"peep_fee", "purchase_fee", "pool"} <= classic
    for game in ("classic", "seven-card", "russian"):
        assert f'value="{game}"' in page.text


def test_a_russian_evening_started_from_the_page_is_the_one_new_would_make(client, nap):
    answer = start(
        client,
        game="russian",
        name="пятница",
        players="Аня\nБорис\nВера\nГлеб",
        dealer="Борис",
        chip="5",
        currency="RUB",
        **{"rule.revoke_fine": "2"},
    )
    assert answer.status_code == 200, answer.text
    nap(
        "new same --players Аня,Борис,Вера,Глеб --variant russian --dealer Борис "
        "--chip 5 --currency RUB --rule revoke_fine=2"
    )
    table = nap.json("table --json --session пятница")
    twin = nap.json("table --json --session same")
    assert table["players"] == twin["players"] and table["pot"] == twin["pot"]
    for field in ("variant", "chip_value", "currency"):
        assert table["session"][field] == twin["session"][field]
    # The same rules, revoke fine included: a revoke costs the same in both.
    for session in ("пятница", "same"):
        nap(f"hand 3 --by Аня --revoke Вера --session {session}")
    deals = [nap.json(f"hands --json --session {s}")[0] for s in ("пятница", "same")]
    assert deals[0]["dealer"] == deals[1]["dealer"] == "Борис"
    assert (
        nap.json("table --json --session пятница")["players"]
        == nap.json("table --json --session same")["players"]
    )
    shown = re.findall(r'<p class="said" role="status">(.*?)</p>', answer.text)
    assert shown[0].startswith("Session пятница (#1) started: ")
    assert shown[-1] == "First to deal: Борис"
    # Its two links, each a QR code too: the keeper's carries this session's key.
    assert f'href="http://testserver/s/1/keep?key={keeper_key(1)}"' in answer.text
    assert 'href="http://testserver/s/1"' in answer.text
    assert answer.text.count('src="data:image/svg+xml') == 2


def test_a_refused_session_gives_news_message_and_keeps_what_was_typed(client, nap):
    nap("new fri --players Ann,Ben,Cat")
    answer = start(client, name="fri", players="Dan\nEve\nFay", chip="0.10", currency="GBP")
    assert answer.status_code == 400
    assert error_line(answer.text) == nap.fails("new fri --players Dan,Eve,Fay")
    assert "Dan\nEve\nFay</textarea>" in answer.text and 'value="0.10"' in answer.text
    bad = start(client, name="sat", players="Dan\nEve\nFay", **{"rule.peep_fee": "lots"})
    assert bad.status_code == 400
    assert 'value="lots"' in bad.text  # the box keeps what was typed, beside the message
    assert error_line(bad.text).startswith("Error: rule peep_fee")
    assert [s["name"] for s in nap.json("sessions --json")["sessions"]] == ["fri"]


def test_a_chip_value_beyond_bounds_is_refused_as_new_refuses_it(client, nap):
    for chip, why in [
        ("1e999999999", "of 1e999999999 is more than anyone plays for"),
        ("1e-999999999", "has more than 12 decimal places: '1e-999999999'"),
    ]:
        answer = start(client, name="fri", players="Dan\nEve\nFay", chip=chip)
        assert answer.status_code == 400
        assert error_line(answer.text) == f"Error: the chip value {why}"
        assert nap.fails(f"new fri --players Dan,Eve,Fay --chip {chip}") == f"Error: --chip {why}"


def test_the_new_session_form_sent_twice_starts_one_session_and_answers_both(client, nap):
    fields = {"name": "fri", "players": "Ann\nBen\nCat", "chip": "0.05", "currency": "GBP"}
    first = start(client, **fields)
    again = start(client, **fields)  # a retry after a lost answer
    assert first.status_code == again.status_code == 200
    assert first.text == again.text  # the same lines and links
    assert [s["name"] for s in nap.json("sessions --json")["sessions"]] == ["fri"]
    nap("hand 3 --by Ann --made")
    late = start(client, **fields)  # no longer as it was started: refused as new refuses it
    assert late.status_code == 400


def test_only_the_organiser_starts_a_session_and_only_from_a_preset(client, nap):
    nap("new fri --players Ann,Ben,Cat")
    for key in ("", "wrong", keeper_key(1), SECRET):
        answer = client.post("/new", data={"key": key, "name": "x", "players": "A\nB\nC"})
        assert answer.status_code == 403, key
    assert client.get("/new").status_code == 403
    assert client.get("/new", params={"key": keeper_key(1)}).status_code == 403
    # A game is a preset's name, never a file the server would read.
    answer = start(client, name="x", players="A\nB\nC", game="/etc/passwd")
    assert answer.status_code == 400
    assert error_line(answer.text).startswith("Error: no game '/etc/passwd': choose one of")
    other_site = client.post(
        "/new",
        data={"key": ORGANISER, "name": "x", "players": "A\nB\nC"},
        headers={"origin": "http://evil.example"},
    )
    assert other_site.status_code == 403
    assert [s["name"] for s in nap.json("sessions --json")["sessions"]] == ["fri"]


def test_the_organiser_starts_the_very_first_session_and_carries_a_pot(client, nap):
    first = client.get("/", params={"key": ORGANISER})
    assert first.status_code == 200 and f'href="/new?key={ORGANISER}"' in first.text
    assert start(client, name="fri", players="Ann\nBen\nCat").status_code == 200
    nap("hand 3 --by Ann --tricks 3 --peep Ben --peep Cat")  # two peeps: 2 chips in the pot
    nap("close --pot carry --yes")
    form = client.get("/new", params={"key": ORGANISER}).text
    assert '<option value="fri">fri</option>' in form
    answer = start(client, name="sat", players="Ann, Ben, Cat", carry_from="fri")
    assert answer.status_code == 200, answer.text
    assert "The pot opens with 2 chips carried over." in answer.text
    assert (
        nap.json("table --json --session sat")["pot"]
        == nap.json("table --json --session fri")["pot"]
    )
