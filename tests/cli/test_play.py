"""Table mode driven through piped standard input, as a replayed evening is."""

import subprocess
import sys
from pathlib import Path

import pytest

from napledger.cli.play import HELP, fitted
from napledger.core.words import _, speaking

EVENING = """\
nap ann 5
3 ben made
# a comment, and a blank line, are nothing

mis cat 0
4 dan revoke eve
ann nap failed --peep ben
pass
undo
amend 2 --failed
join Fay --after eve
wellington ann 4
"""

# The same evening as one-shot commands.
ONE_SHOT = [
    "hand nap --by ann --tricks 5",
    "hand 3 --by ben --made",
    "hand mis --by cat --tricks 0",
    "hand 4 --by dan --revoke eve",
    "hand nap --by ann --failed --peep ben",
    "pass",
    "undo",
    "amend 2 --failed",
    "join Fay --after eve",
    "hand wellington --by ann --tricks 4",
]


def start(nap, players="Ann,Ben,Cat,Dan,Eve"):
    nap(f"new fri --players {players}")


def test_each_deal_prints_its_scoreboard_and_a_bad_line_does_not_stop_the_loop(nap):
    start(nap)
    result = nap("play", input="nap a 5\n3 b made\ntable\nbogus\nquit\nnap c 5\n", ok=False)
    assert result.exit_code == 1  # piped: a replay with a bad line says so in its status
    out = result.stdout
    assert "Deal 1 · Ann dealt · Ann bid nap: made (5 tricks)" in out
    assert "Deal 2 · Ben dealt · Ben bid three: made" in out
    assert out.count("Next to deal:") == 3  # two deals and `table`
    assert result.stderr.strip().splitlines() == [
        "Error: line 4: 'bogus' is not a command, a bid or a player; type `help` for what a line can be"
    ]
    assert "Deal 3" not in out  # `quit` left before the last line
    assert nap.json("table --json")["hands"] == 2


def test_piped_input_prints_no_prompt_and_end_of_input_leaves_cleanly(nap):
    start(nap)
    result = nap("play", input="3 ben made")  # no newline, no quit: EOF
    assert result.exit_code == 0
    assert "deals>" not in result.output and "napledger>" not in result.output
    assert nap.chips()["Ben"] == 12


def test_replaying_a_file_equals_the_same_evening_typed_as_commands(nap, db_path, monkeypatch):
    start(nap)
    assert nap("play", input=EVENING).stderr == ""
    replayed = nap.json("hands --json")
    replayed_table = nap.json("table --json")

    monkeypatch.setenv("NAPLEDGER_DB", str(db_path.with_name("one-shot.db")))
    start(nap)
    for line in ONE_SHOT:
        nap(line)
    typed = nap.json("hands --json")

    def same(deals):
        return [{k: v for k, v in d.items() if k != "recorded_at"} for d in deals]

    assert same(replayed) == same(typed)
    assert nap.json("table --json") == replayed_table
    assert [d["status"] for d in typed].count("voided") == 1


def test_each_line_prints_what_the_one_shot_command_prints(nap):
    start(nap)
    nap("hand nap --by ann --tricks 5")
    one_shot = nap("table")
    loop = nap("play", input="table\n")
    assert loop.stdout == one_shot.stdout


def test_a_failing_command_gives_its_usual_error_and_changes_nothing(nap):
    start(nap)
    result = nap(
        "play", input="hand nap --by zed --tricks 5\nvoid 9\nhand --tricks\n3 ben made\n", ok=False
    )
    errors = result.stderr.strip().splitlines()
    assert errors[0].startswith("Error: line 1: no player 'zed' at the table")
    assert errors[1].startswith("Error: line 2: no deal 9")
    assert errors[2].startswith("Error: line 3: ") and len(errors) == 3
    assert result.exit_code == 1
    assert nap.json("table --json")["hands"] == 1


def test_session_option_pins_the_loop_to_one_session(nap):
    nap("new first --players A,B,C")
    nap("new second --players X,Y,Z")  # now the current one
    nap("play --session first", input="3 a made\ntable --json\n")
    assert nap.chips("first") == {"A": 6, "B": -3, "C": -3}
    assert nap.chips("second") == {"X": 0, "Y": 0, "Z": 0}
    assert "no session 'nope'" in nap.fails("play --session nope")


def test_the_loop_follows_new_and_use_without_a_pinned_session(nap):
    result = nap("play", input="new fri --players Ann,Ben,Cat\nnap ann 5\nhelp\nplay\n", ok=False)
    assert result.exit_code == 1  # for the refused `play`
    assert "Deal 1 · Ann dealt · Ann bid nap" in result.stdout
    assert "BID PLAYER RESULT" in result.stdout  # help
    assert result.stderr.strip() == "Error: line 4: already playing; type a command or a deal"
    assert nap.chips() == {"Ann": 20, "Ben": -10, "Cat": -10}


def test_an_ambiguous_line_is_refused(nap):
    start(nap, "Three,Nap,Ann")
    result = nap("play", input="three nap 5\n", ok=False)
    assert result.exit_code == 1
    assert "could be three by Nap or nap by Three" in result.stderr
    assert nap.json("table --json")["hands"] == 0


def test_a_real_pipe_replays_a_file(tmp_path, db_path):
    evening = tmp_path / "evening.txt"
    evening.write_text("new fri --players Ann,Ben,Cat\nnap ann 5\n3 ben made\n")
    with evening.open() as stdin:
        run = subprocess.run(
            [sys.executable, "-m", "napledger", "play"],
            stdin=stdin,
            capture_output=True,
            text=True,
            cwd=Path(__file__).parents[2],
            check=False,
        )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert "Deal 2 · Ben dealt" in run.stdout


def test_play_on_a_named_database_keeps_to_it_whatever_the_environment_says(nap, tmp_path):
    other = tmp_path / "other.db"
    nap(f"--db {other} new away --players A,B,C")
    nap("new home --players X,Y,Z")  # the NAPLEDGER_DB database
    nap(f"--db {other} play", input="hand 3 --by A --made\n")
    assert nap.json(f"--db {other} table --json")["hands"] == 1
    assert nap.json("table --json")["hands"] == 0


def test_a_replayed_close_does_not_wait_for_an_answer_and_reopen_takes_it_back(nap):
    start(nap)
    result = nap("play", input="nap ann 5\nclose\nreopen\n3 ben made\nclose --pot carry\n")
    assert result.stderr == "" and "[y/N]" not in result.stdout
    assert "Session fri reopened" in result.stdout
    assert nap.json("table --json")["hands"] == 2
    assert nap.json("table --json")["session"]["closed"]


def test_a_short_form_contradicted_by_an_option_records_nothing(nap):
    start(nap)
    lines = "nap four --by Cat --tricks 4\nnap ann 5 --tricks 2\nhnad four --by ben --tricks 4\n"
    errors = nap("play", input=lines, ok=False).stderr.strip().splitlines()
    assert [e.split(":")[1].strip() for e in errors] == ["line 1", "line 2", "line 3"]
    assert "Did you mean hand?" in errors[2]
    assert nap.json("table --json")["hands"] == 0


def test_commands_started_with_their_input_closed_give_one_line(nap):
    """`napledger play <&-` from a script: no terminal, no file, and no traceback either."""
    import subprocess
    import sys

    start(nap)

    def run(command):
        return subprocess.run(
            ["sh", "-c", f'exec "$0" -m napledger {command} <&-', sys.executable],
            capture_output=True,
            text=True,
        )

    played = run("play")
    assert (played.returncode, played.stderr) == (
        1,
        "Error: play reads lines from a terminal or a file, and its input is closed\n",
    )
    closed = run("close")  # no terminal to ask in: it closes, as a script would expect
    assert closed.returncode == 0 and closed.stderr == ""
    assert nap.json("table --json")["session"]["closed"]


def test_a_deal_in_play_is_one_transaction_whatever_the_length_of_the_evening(nap):
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    start(nap)
    counted = {"transactions": 0, "statements": 0}

    def began(*_):
        counted["transactions"] += 1

    def ran(*_):
        counted["statements"] += 1

    def play(deals: int) -> dict[str, int]:
        counted.update(transactions=0, statements=0)
        lines = ["nap ann 5", "3 ben made", "mis cat 1", "4 dan revoke eve", "3 eve failed"]
        nap("play", input="".join(lines[i % len(lines)] + "\n" for i in range(deals)))
        return dict(counted)

    event.listen(Engine, "begin", began)
    event.listen(Engine, "before_cursor_execute", ran)
    try:
        few, many = play(5), play(15)
        play(40)
        later = play(15)  # 60 deals on
    finally:
        event.remove(Engine, "begin", began)
        event.remove(Engine, "before_cursor_execute", ran)
    # Each deal line: one transaction (the prompt's view is read inside it), and no more
    # statements late in the evening than early on.
    assert many["transactions"] - few["transactions"] == 10
    assert later == many
    assert nap.json("table --json")["hands"] == 75


def test_the_help_inside_play_fits_80_columns_without_cutting_a_word(nap):
    start(nap)
    shown = nap("play", input="help\n").stdout
    assert max(len(line) for line in shown.splitlines()) <= 80
    assert "ania trzy ugrała" in " ".join(shown.split())  # wrapped between words only


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_the_help_fits_in_every_language(lang):
    with speaking(lang):
        said = _(HELP).format(commands="amend, close, export, hand, hands, join, leave, new")
    shown = fitted(said, 80)
    assert max(len(line) for line in shown.splitlines()) <= 80
    assert shown.split() == said.split()  # every word whole, none lost
