"""`napledger import`: what it parses and where it sends it (the import itself is tested on
the service: tests/service/test_import.py)."""

import os
from pathlib import Path

import pytest


@pytest.fixture
def home(nap, tmp_path):
    """A member's ledger at home, with one evening."""
    path = tmp_path / "home.db"
    for line in ("new friday --players Ann,Ben,Cat", "hand 3 --by Ann --made", "pass"):
        nap(f"--db {path} {line}")
    return path


def test_a_ledger_is_imported_said_once_and_not_again(nap, home):
    assert nap(f"import {home} --dry-run").stdout.splitlines() == [
        "Would import session friday: 2 deal records.",
        "Nothing was written (--dry-run).",
    ]
    if "://" not in os.environ["NAPLEDGER_DB"]:  # nothing written: not even an empty file
        assert not Path(os.environ["NAPLEDGER_DB"]).exists()
    assert nap(f"import {home}").stdout == "Imported session friday: 2 deal records.\n"
    assert nap.json("table --json --session friday")["hands"] == 2
    again = nap(f"import {home}").stdout.splitlines()
    assert again[-1] == "Nothing was imported: every session named is here already."
    assert again[0] == (
        "Session friday is here already; it was not imported again. To import it as a new "
        "session, give --as NAME."
    )


def test_sessions_as_and_json_are_passed_on(nap, home):
    done = nap.json(f"import {home} friday --as saturday --json")
    assert [(i["name"], i["deals"]) for i in done["imported"]] == [("saturday", 2)]
    assert done["dry_run"] is False and done["already"] == []
    assert nap.fails(f"import {home} nosuch") == "Error: the source has no session 'nosuch'"


def test_a_score_sheet_and_a_stray_file_are_refused_in_one_line(nap, tmp_path):
    sheet = tmp_path / "paper.csv"
    sheet.write_text("session,friday\n", encoding="utf-8")
    assert nap.fails(f"import {sheet}").startswith("Error: the score sheet does not say its game")
    stray = tmp_path / "notes.txt"
    stray.write_text("hello", encoding="utf-8")
    assert nap.fails(f"import {stray}") == (
        f"Error: {stray} is neither a napledger ledger nor a workbook it wrote"
    )


def test_the_refusal_is_said_in_the_table_s_language(nap, tmp_path):
    assert nap.fails(f"--lang ru import {tmp_path / 'nothing.db'}").startswith("Ошибка: ")
