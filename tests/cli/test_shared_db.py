"""Several tables writing into one database at once: real processes, no lost or doubled deal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A table: optionally opens its session, then records deals one command (one transaction)
# at a time, as people at a table would.
TABLE = """
import sys
from napledger.cli import app
session, players, bidder, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if players:
    assert not app(["new", session, "--players", players], standalone_mode=False)
for _ in range(count):
    code = app(["hand", "three", "--by", bidder, "--made", "--session", session],
               standalone_mode=False)
    assert not code, code
"""


def run_tables(*jobs: tuple[str, str, str, int]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", TABLE, *map(str, job)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for job in jobs
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err


def numbers(nap, session: str) -> list[int]:
    return [h["number"] for h in nap.json(f"hands --json --session {session}")]


def test_writers_into_one_session_number_deals_exactly(nap):
    nap("new club --players A,B,C")
    run_tables(*[("club", "", bidder, 8) for bidder in "ABC"])
    assert numbers(nap, "club") == list(range(1, 25))
    # Every deal paid 3 from each opponent to its bidder: eight made threes each.
    assert nap.chips("club") == {p: 8 * 6 - 16 * 3 for p in "ABC"}


def test_tables_opening_on_a_fresh_database_at_once(nap):
    # The schema, the shared new players and the current-session marker are all raced for.
    run_tables(
        ("t1", "Ann,Bob,Cy", "bob", 5), ("t2", "ann,Dee,Eve", "dee", 5), ("t3", "ANN,Bob,Fay", "fay", 4)
    )  # fmt: skip
    assert numbers(nap, "t1") == numbers(nap, "t2") == list(range(1, 6))
    assert numbers(nap, "t3") == list(range(1, 5))
    # Whichever table wrote Ann first chose the spelling; all three tables share it.
    spellings = {
        name for t in ("t1", "t2", "t3") for name in nap.chips(t) if name.casefold() == "ann"
    }
    assert len(spellings) == 1
    assert nap.chips("t2") == {spellings.pop(): -15, "Dee": 30, "Eve": -15}
    listed = nap.json("sessions --json")["sessions"]
    assert sorted(s["name"] for s in listed) == ["t1", "t2", "t3"]
    assert sum(s["current"] for s in listed) == 1


def test_an_unreachable_server_is_one_error_without_the_password(nap, tmp_path):
    url = f"postgresql+psycopg://club:s3cret@/napledger?host={tmp_path}"
    error = nap.fails(f"--db {url} stats")
    assert error.startswith("Error: database problem with postgresql+psycopg://club:***@")
    assert "s3cret" not in error


def test_only_sqlite_and_postgresql(nap):
    assert "SQLite or PostgreSQL, not mysql" in nap.fails("--db mysql://u@h/db table")


def test_each_table_names_its_session_in_the_environment(nap, monkeypatch):
    nap("new t1 --players A,B,C")
    nap("new t2 --players D,E,F")  # the database's current session is now t2
    monkeypatch.setenv("NAPLEDGER_SESSION", "t1")
    nap("hand 3 --by A --made")
    assert nap.json("table --json")["session"]["name"] == "t1"
    assert nap.json("table --json --session t2")["hands"] == 0
    assert nap.chips("t1") == {"A": 6, "B": -3, "C": -3}
    # Commands over several sessions keep to this table's session as well.
    assert {t["to"] for t in nap.json("settle --json")["transfers"]} == {"A"}
