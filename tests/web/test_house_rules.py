"""`serve --rules FILE.toml`: the organiser's form offers every preset and each house-rule
file serve was given (README, "Organiser's link"), chosen by name, read once at start."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from napledger.core.read.games import house_rules
from napledger.core.rules import list_presets
from napledger.web.app import create_app
from tests.web.conftest import SECRET
from tests.web.test_new_session import ORGANISER

PUB = """
name = "pub"
title = "The Crown's Nap"
min_players = 3
max_players = 5
hand_size = 5
[settings]
peep_fee = 2
[[bids]]
name = "three"
tricks = 3
win = 3
lose = 3
[[bids]]
name = "nap"
tricks = 5
win = 10
lose = 5
"""


def test_the_form_lists_every_preset_and_the_files_serve_was_given(tmp_path: Path, nap):
    (tmp_path / "pub.toml").write_text(PUB, encoding="utf-8")
    house = house_rules([str(tmp_path / "pub.toml")])
    with TestClient(create_app(None, SECRET, house=house)) as client:
        page = client.get("/new", params={"key": ORGANISER}).text
        offered = re.findall(r'<option value="([^"]+)"', page)
        assert offered[: len(list_presets()) + 1] == [*list_presets(), "pub"]
        assert "The Crown&#39;s Nap · house rules" in page
        chosen = client.get("/new", params={"key": ORGANISER, "game": "pub"}).text
        assert re.search(r'type="number" name="rule.peep_fee" min="0" [^>]*value="2"', chosen)
        answer = client.post(
            "/new",
            data={"key": ORGANISER, "game": "pub", "name": "crown", "players": "Ann\nBen\nCat"}
            | {"rule.peep_fee": "3"},
        )
        assert answer.status_code == 200, answer.text
    table = nap.json("table --json --session crown")
    assert table["session"]["variant"] == "pub"
    nap("hand nap --by Ben --made --peep Cat --session crown")
    assert nap.json("table --json --session crown")["pot"] == 3  # the fee typed, not the file's


def test_a_page_cannot_name_a_file_only_a_game_serve_read(client, tmp_path: Path):
    (tmp_path / "pub.toml").write_text(PUB, encoding="utf-8")
    answer = client.post(
        "/new",
        data={"key": ORGANISER, "game": str(tmp_path / "pub.toml"), "name": "x"}
        | {"players": "Ann\nBen\nCat"},
    )
    assert answer.status_code == 400
    assert "no game" in answer.text


def test_serve_refuses_a_bad_or_clashing_rule_file_before_it_listens(tmp_path: Path, nap):
    missing = nap.fails(f"serve --port 0 --rules {tmp_path / 'none.toml'}")
    assert missing.startswith("Error: cannot read rule file ")
    (tmp_path / "classic.toml").write_text(PUB.replace('"pub"', '"classic"'), encoding="utf-8")
    clash = nap.fails(f"serve --port 0 --rules {tmp_path / 'classic.toml'}")
    assert "which is a preset's name" in clash
