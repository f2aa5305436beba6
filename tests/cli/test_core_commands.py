"""The everyday commands' output and the clean-failure contract."""

import subprocess
import sys


def test_variants_lists_presets_and_shows_a_stake_table(nap):
    out = nap("variants").stdout
    assert "classic" in out and "seven-card" in out and "russian" in out
    table = nap("variants seven-card").stdout
    assert "six" in table and "18" in table and "9" in table
    assert "dealer_sits_out_from" in nap("variants classic").stdout


def test_scoreboard_signs_read_without_colour(nap):
    nap("new s --players Ann,Ben,Cat --chip 0.05 --currency GBP")
    out = nap("hand 3 --by ann --made").stdout
    assert "Ann +6" in out and "Ben -3" in out
    assert "+0.30" in out and "-0.15" in out
    assert "\x1b[" not in out  # NO_COLOR is set by the test fixture
    assert "Next to deal: Ben" in out


def test_sessions_and_use(nap):
    nap("new one --players A,B,C")
    nap("new two --players A,B,C")
    listed = nap.json("sessions --json")["sessions"]
    assert [(s["name"], s["current"]) for s in listed] == [("one", False), ("two", True)]
    nap("use one")
    nap("hand 3 --by A --made")
    assert nap.json("table --json --session one")["hands"] == 1
    assert nap.json("table --json --session 2")["hands"] == 0


def test_players_are_matched_forgivingly_and_told_when_unknown(nap):
    nap("new s --players Ann,Anna,Ben")
    assert "could be Ann, Anna" not in nap("hand 3 --by ann --made").stdout
    assert "could be" in nap.fails("hand 3 --by an --made")
    assert "did you mean Ben?" in nap.fails("hand 3 --by bem --made")


def test_usage_errors_exit_2_in_one_line(nap):
    assert "--tricks" in nap.fails("hand nap --by A --tricks five", code=2)
    assert nap.fails("frobnicate", code=2).startswith("Error: ")


def test_python_dash_m_runs_the_same_cli(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "napledger", "variants"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0 and "classic" in result.stdout
