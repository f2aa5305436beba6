"""`--help` in Typer's Rich form, and the shell completion Typer installs."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).with_name("napledger")


def test_help_gives_whole_descriptions_and_named_values(nap):
    out = nap("--help").stdout
    # Whole descriptions, not cut at 45 characters with "...".
    assert "Take back a close made by mistake: it stays in the record, voided." in out
    assert "(or a revoke)" in " ".join(out.split())
    assert "--install-completion" in out and "--show-completion" in out
    hand = nap("hand --help").stdout
    for shown in ("PLAYER", "PLAYER=N", "BID", "TEXT"):
        assert shown in hand
    assert "{bid}" not in hand
    # No Python type beside a name (`BID <str>`, `S <list[str]>`): a programmer's words.
    for command in ("hand", "new", "export", "import", "amend", "join"):
        assert not re.search(r"<\w+(\[\w+\])?>", nap(f"{command} --help").stdout), command


def test_a_bare_command_shows_the_help_without_an_error_line(nap):
    result = nap("", ok=False)
    assert result.exit_code == 2
    assert "Commands" in result.stdout and "Error" not in result.output


@pytest.mark.skipif(not SCRIPT.exists(), reason="the napledger script is not installed")
def test_the_installed_program_answers_the_shell(nap, db_path):
    nap("new friday --players Ann,Ben,Cat")
    line = "napledger hand nap --by "
    run = subprocess.run(
        [str(SCRIPT)],
        env={
            **os.environ,
            "NAPLEDGER_DB": str(db_path),
            "_NAPLEDGER_COMPLETE": "complete_bash",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(line.split(" ")) - 1),
        },
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.split() == ["Ann", "Ben", "Cat"]


def test_one_shot_commands_complete_players_bids_sessions_and_pot_choices(nap):
    nap("new friday --players Ann,Ben,Cat")

    complete = nap.complete
    assert complete("napledger hand nap --by ") == ["Ann", "Ben", "Cat"]
    assert complete("napledger hand nap --by b") == ["ben"]  # as typed, or the shell drops it
    assert complete("napledger hand blu") == ["blucher", "bluecher"]  # what Tab keeps
    assert "two" not in complete("napledger hand t")  # off in classic
    assert complete("napledger close --pot ") == ["split", "carry", "Ann", "Ben", "Cat"]
    assert complete("napledger use f") == ["friday"]
    assert complete("napledger leave C") == ["Cat"]


def test_one_shot_commands_complete_the_tables_own_words(nap):
    nap("new kitchen --players Борис,Гена,Paweł --variant russian")

    complete = nap.complete
    assert complete("napledger hand нап") == ["наполеон"]
    assert complete("napledger hand че") == ["четыре"]
    assert complete("napledger hand три --by г") == ["гена"]
    assert complete("napledger hand три --by pawe") == ["paweł"]  # as typed, Polish letter and all
    assert complete("napledger hand три --by pawel") == ["pawel"]
