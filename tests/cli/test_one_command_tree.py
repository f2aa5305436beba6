"""A one-shot command runs on an app holding only itself (`Commands.only`, issue #23): it
must parse, say and refuse exactly what the whole app does."""

import sys

import pytest
import typer.main
from typer.testing import CliRunner

from napledger.cli import app, main


def test_every_command_is_kept_under_the_name_typer_gives_it():
    assert sorted(app.declared) == sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["hand", "nap", "--by", "Ann"], "hand"),
        (["--db", "friday.db", "table"], "table"),
        (["--db=friday.db", "--lang", "ru", "settle"], "settle"),
        (["--db", "hand", "table"], "table"),  # a database file called `hand`
        (["pass"], "pass"),
        ([], None),
        (["--help"], None),
        (["--lang"], None),
        (["hnad"], None),  # misspelt: the whole app says what it might be
        (["пас"], None),  # `pass` in the table's word: the whole app reads it
        (["nap", "ann", "5"], None),  # a deal in short form: the whole app points at `hand`
    ],
)
def test_the_command_typed_is_found_after_the_root_options(argv, named):
    assert app.typed(argv) == named


@pytest.mark.parametrize(
    "words",
    [
        ["hand", "--help"],
        ["hand", "nap", "--by", "Zed"],  # no such player
        ["hand", "nap", "--bogus"],  # no such option
        ["amend", "x"],  # not a deal number
        ["--lang", "ru", "table"],
    ],
)
def test_one_command_answers_as_the_whole_app_does(nap, words):
    nap("new friday --players Ann,Ben,Cat")
    runner = CliRunner()
    whole = runner.invoke(app, words)
    alone = runner.invoke(app.only(app.typed(words) or ""), words)
    assert (alone.exit_code, alone.stdout, alone.stderr) == (
        whole.exit_code,
        whole.stdout,
        whole.stderr,
    )


def test_the_program_records_a_deal_through_its_one_command(nap, monkeypatch, capsys):
    nap("new friday --players Ann,Ben,Cat")
    monkeypatch.setattr(sys, "argv", ["napledger", "hand", "nap", "--by", "Ann", "--tricks", "5"])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 0
    assert "Ann" in capsys.readouterr().out
    assert [deal["bid"] for deal in nap.json("hands --json")] == ["nap"]
