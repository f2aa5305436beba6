"""The everyday commands' output and the clean-failure contract."""

import os
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


def test_amend_shows_the_new_payments_and_can_clear_peeps(nap):
    nap("new s --players A,B,C --rule peep_fee=1")
    nap("hand 3 --by A --made --peep B")
    out = nap("amend 1 --no-peeps").stdout
    assert "now 1.2" in out and "B -3" in out
    assert nap.json("hands --json")[-1]["peeps"] == []
    assert nap.fails("amend 1 --no-peeps --peep C") == (
        "Error: say who peeped or that nobody did, not both (--peep)"
    )


def test_a_deal_without_one_clear_outcome_is_refused_naming_the_options_it_is_about(nap):
    # The core says it of the deal (the page shows the same line beside its Result
    # buttons); the terminal points at its own options, --short (a failed bid, so many
    # tricks short) among them.
    nap("new s --players A,B,C")
    assert nap.fails("hand 3 --by A") == (
        "Error: say how the deal went: the tricks taken, made or failed, or who revoked "
        "(--tricks/--made/--failed/--short)"
    )
    assert nap.fails("hand 3 --by A --tricks 3 --made") == (
        "Error: give the tricks taken or made/failed, not both (--tricks/--made/--failed/--short)"
    )
    assert nap.fails("hand 3 --by A --made --failed") == (
        "Error: a deal is made or failed, not both (--tricks/--made/--failed/--short)"
    )
    assert nap.fails("hand 3 --by A --short 2 --tricks 1") == (
        "Error: give the tricks taken or how many short, not both "
        "(--tricks/--made/--failed/--short)"
    )
    assert nap.fails("hand 3 --by A --short 2 --made") == (
        "Error: a deal is made or failed, not both (--tricks/--made/--failed/--short)"
    )
    assert nap.fails("hand 3 --by A --short 4") == (
        "Error: a bid of 3 tricks can be 1 to 3 short, not 4 (--tricks/--made/--failed/--short)"
    )
    nap("hand 3 --by A --made")
    assert nap.fails("amend 1 --short 1 --tricks 2").endswith("(--tricks/--made/--failed/--short)")
    # In the table's language too: the options are typed as they are in every language.
    assert nap.fails("--lang ru hand 3 --by A") == (
        "Ошибка: скажите, чем кончилась сдача: сколько взяток, сыграл или без, или кто "
        "сделал ренонс (--tricks/--made/--failed/--short)"
    )
    assert nap.fails("--lang pl hand 3 --by A --short 1 --made").endswith(
        "(--tricks/--made/--failed/--short)"
    )
    # None of them was written: deal 1 as it was recorded, and no other.
    assert [(h["label"], h["outcome"]) for h in nap.json("hands --json")] == [("1", "made")]


def test_a_player_who_left_is_told_apart_from_a_stranger(nap):
    nap("new s --players Ann,Ben,Cat,Dan")
    nap("leave ben")
    assert "Ben is not at the table (`join Ben`" in nap.fails("hand 3 --by ben --made")
    assert "no player 'zed' at the table" in nap.fails("hand 3 --by zed --made")


def test_odd_numbers_are_refused_in_one_line(nap, tmp_path):
    nap("new s --players A,B,C --chip 5E+1")
    assert nap.json("table --json")["session"]["chip_value"] == "50"
    assert "the bid two is off" in nap.fails("hand 2 --by A --made")
    assert "no deal 99999999999999999999" in nap.fails("void 99999999999999999999")
    assert "no session '²'" in nap.fails("table -s ²")
    assert "PLAYER=N" in nap.fails("hand 3 --by A --made --buy A=²")
    assert "is a folder" in nap.fails(f"--db {tmp_path} table")


def test_a_note_is_kept_shown_and_exported_as_text(nap, tmp_path):
    import openpyxl

    nap("new s --players A,B,C")
    assert "— =Sir Garnet" in nap('hand nap --by A --tricks 5 --note "=Sir Garnet"').stdout
    assert nap.json("hands --json")[0]["note"] == "=Sir Garnet"
    path = tmp_path / "n.xlsx"
    nap(f"export -o {path}")
    notes = [
        c
        for row in openpyxl.load_workbook(path)["Deals"].iter_rows()
        for c in row
        if c.value == "=Sir Garnet"
    ]
    assert len(notes) == 1 and notes[0].data_type == "s"
    nap('amend 1 --note ""')
    assert nap.json("hands --json")[-1]["note"] is None
    assert "longer than 200" in nap.fails("hand 3 --by B --made --note " + "x" * 201)


def test_the_scoreboard_title_stays_on_one_line(nap):
    nap("new friday --players Ann,Ben,Cat,Dan,Eve")
    for _ in range(10):
        out = nap("pass").stdout
    assert "friday · English Nap · 10 deals" in [line.strip() for line in out.splitlines()]
    nap("new saturday --players Ann,Ben,Cat,Dan --variant russian")
    out = nap("pass").stdout
    title = "saturday · Наполеон (Russian Napoleon) · 1 deal"
    assert title in [line.strip() for line in out.splitlines()]


def test_hands_shows_peeps_purchases_and_everyone_who_paid_and_keeps_names_with_amounts(nap):
    nap("new sat --players Anastasia,Bartholomew,Cat,Dan,Eve,Fay --variant russian")
    nap("hand one --by Bartholomew --failed")  # Anastasia antes 1 and wins 1 back: net 0
    assert "Anastasia 0" in nap("hands").stdout
    # Fees: 1 a peep, 1 a card; buying at seven only where the table lifts the limit of four.
    nap("new fri --players Anastasia,Bartholomew,Cat,Dan,Eve,Fay,Gus --rule purchase_max_dealt=off")
    nap("hand 3 --by Bartholomew --made --peep Cat --buy Dan=2 --note 'a long note to squeeze'")
    nap("hand nap --by Eve --failed --peep Fay --peep Gus --buy Anastasia=3")
    out = nap("hands").stdout
    assert "made; Cat peeped; Dan bought 2" in out
    for line in out.splitlines():
        cells = line.split("│")
        if len(cells) == 8:  # a deal's row, or the rest of its payments
            payments = cells[5].split()
            assert len(payments) % 2 == 0, line  # names and amounts come in pairs
            assert all(amount[-1].isdigit() for amount in payments[1::2]), line


def test_a_short_form_outside_play_points_to_hand_and_its_options(nap):
    nap("new s --players Ann,Ben,Cat")
    assert nap.fails("nap ann 5", code=2) == (
        "Error: No such command 'nap': a deal is recorded with "
        "`napledger hand nap --by ann --tricks 5` (or typed as `nap ann 5` in `napledger play`)"
    )
    assert "`napledger hand nap --by Ann --tricks 5`" in nap.fails("hand nap Ann 5", code=2)
    assert nap.fails("tabel", code=2) == "Error: No such command 'tabel'. Did you mean 'table'?"
    assert nap.fails("ammend 1 --tricks 3", code=2) == (
        "Error: No such command 'ammend'. Did you mean 'amend', 'hand'?"
    )
    assert "hand four --by Ann" not in nap.fails("hnad four --by Ann --tricks 4", code=2)
    # A `hand` with options is not a short form: its error is Click's alone, no hint that
    # repeats the options (`hand three --by --by`).
    assert nap.fails("hand three --by", code=2) == "Error: Option '--by' requires an argument."
    assert nap.json("table --json")["hands"] == 0


def test_changing_a_voided_deal_says_it_is_voided(nap):
    nap("new s --players Ann,Ben,Cat")
    nap("hand 3 --by ann --made")
    nap("undo")
    assert nap.fails("amend 1 --failed") == (
        "Error: deal 1 of 's' is voided and stays so (`hands` shows it); "
        "to count it after all, record it again as a new deal"
    )
    assert "is voided" in nap.fails("void 1")
    assert "no deal 2 to change" in nap.fails("amend 2 --failed")


def test_close_says_once_where_the_pot_went_and_new_says_what_a_chip_is(nap):
    assert "scored in chips (no money value" in nap("new s --players Ann,Ben,Cat").stdout
    out = nap("close").stdout
    assert "Session s closed. Pot: empty." in out and "Closed; pot" not in out
    assert "Closed; pot: split." in nap("table").stdout
    assert "1 chip = 0.05 GBP" in nap("new t --players A,B,C --chip 0.05 --currency GBP").stdout


def test_sessions_at_80_columns_keeps_every_name_and_state_whole(nap, db_path):
    nap("new evening-20261202-121500 --players Anastasia,Bartholomew,Cat,Dan,Eve")
    nap("close")
    nap("new friday-the-twelfth-of-december --players Ann,Ben,Cat --variant seven-card")
    run = subprocess.run(
        [sys.executable, "-m", "napledger", "sessions"],
        env={**os.environ, "NAPLEDGER_DB": str(db_path), "COLUMNS": "80"},
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [line.split() for line in run.stdout.splitlines()]
    assert ["1", "evening-20261202-121500", "closed", "classic"] in [r[:4] for r in rows]
    assert ["2", "friday-the-twelfth-of-december", "open"] in [r[1:4] for r in rows]


def test_leaving_twice_says_the_player_has_left_not_that_nobody_is_called_so(nap):
    nap("new s --players Ann,Ben,Cat,Dan")
    nap("leave Ann")
    assert nap.fails("leave ann") == "Error: Ann has already left the table"
    assert nap.fails("leave zed").startswith("Error: no player 'zed' at the table")


def test_a_corrected_deals_listed_number_points_to_its_deal_number(nap):
    nap("new s --players Ann,Ben,Cat")
    nap("hand 3 --by ann --made")
    nap("amend 1 --failed")
    assert nap.fails("amend 1.2 --made", code=2) == (
        "Error: Invalid value for 'N': 1.2 is deal 1 as corrected: give the deal's number, 1"
    )
    assert [d["status"] for d in nap.json("hands --json")] == ["replaced", "live"]
