"""Paths, addresses, files and numbers from outside: each refused in one deliberate line.

Each case is something a red-team run found ending in "unexpected …", a hang, or a
surprising success; here each must fail with its own explanation and change nothing.
"""

import os
import shlex
import subprocess
import sys
import threading
from decimal import Decimal
from pathlib import Path

import pytest

SHORT_RULES = """
name = "house"
{title}
min_players = 3
max_players = 5
hand_size = 5
[[bids]]
name = "{bid}"
tricks = 3
win = 3
lose = 3
"""


def rule_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(text, "utf-8")
    return path


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("stats --until 9999-12-31", "--until 9999-12-31 is outside the days napledger can count"),
        ("stats --since 0001-01-01", "--since 0001-01-01 is outside the days napledger can count"),
        ("export --all --until 9999-12-31", "--until 9999-12-31 is outside the days"),
    ],
)
def test_days_beyond_the_calendar_are_refused_by_name(nap, command, message):
    nap("new a --players A,B,C")
    assert message in nap.fails(command)


def test_the_last_countable_days_still_count(nap):
    nap("new a --players A,B,C")
    assert nap.json("stats --json --since 0001-01-02 --until 9999-12-30")["players"]


def test_a_rule_file_nested_thousands_deep_is_refused(nap, tmp_path):
    path = rule_file(tmp_path, "x = " + "[" * 5000 + "]" * 5000 + "\n")
    assert "is nested too deeply to be a rule file" in nap.fails(f"variants {path}")


def test_a_device_is_not_a_rule_file(nap):
    assert nap.fails("new x --players A,B,C --variant /dev/zero") == (
        "Error: rule file /dev/zero is not a regular file"
    )


def test_a_fifo_as_a_rule_file_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)
    result = subprocess.run(
        [sys.executable, "-m", "napledger", "variants", str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,  # the old behaviour: blocked for ever in open()
    )
    assert result.returncode == 1
    assert result.stderr == f"Error: rule file {fifo} is not a regular file\n"


def test_a_huge_rule_file_is_refused_before_it_is_read(nap, tmp_path):
    path = rule_file(tmp_path, SHORT_RULES.format(title="", bid="three") + "#" * 300_000)
    assert "is over 256 KB" in nap.fails(f"variants {path}")


@pytest.mark.parametrize(
    ("title", "bid", "message"),
    [
        (f'title = "{"T" * 201}"', "three", "title 'TTTTTTTTTTTTTTTTTTTT'… is longer than 200"),
        ("", "th\\u0000ree", "name 'th\\x00ree' has control characters in it"),
        ("", "\\u0301", "bids[1] name '\u0301' has only accent marks, no letters"),
        ('title = "a\\u001b[2Jb"', "three", "title 'a\\x1b[2Jb' has control characters"),
    ],
)
def test_rule_file_words_are_printable_and_short(nap, tmp_path, title, bid, message):
    path = rule_file(tmp_path, SHORT_RULES.format(title=title, bid=bid))
    assert message in nap.fails(f"new x --players A,B,C --variant {path}")


def test_a_200_character_title_and_a_multi_line_description_are_fine(nap, tmp_path):
    title = f'title = "{"T" * 200}"\ndescription = """two\nlines"""'
    path = rule_file(tmp_path, SHORT_RULES.format(title=title, bid="three"))
    nap(f"new x --players A,B,C --variant {path}")


# --- where the database is ---------------------------------------------------------


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("db", "message"),
    [
        ("~nosuchuser/x.db", "no home folder for ~nosuchuser in the database path"),
        ("{tmp}/" + "d" * 5000 + ".db", "the database path is too long"),
        (
            "sqlite:///{tmp}/k.db?timeout=abc",
            "napledger sets SQLite's options itself; drop ?timeout=abc",
        ),
        ("sqlite:///file:{tmp}/k.db?uri=true", "drop ?uri=true"),
        ("sqlite://", "is a database in memory, gone when the command ends"),
        ("sqlite:///:memory:", "is a database in memory"),
        ("{tmp}/k.db\n", "has a control character in it"),
        ("{tmp}/k\x1b[31m.db", "has a control character in it"),
    ],
)
def test_database_paths_that_cannot_be_meant_are_refused(nap, tmp_path, monkeypatch, db, message):
    monkeypatch.setenv("NAPLEDGER_DB", db.format(tmp=tmp_path))
    for command in ("table", "new x --players A,B,C"):
        assert message in nap.fails(command)
    assert list(tmp_path.iterdir()) == []  # no file, no stray folder


@pytest.mark.sqlite_only
def test_dot_dot_through_a_missing_folder_names_one_file_for_reading_and_writing(
    nap, tmp_path, monkeypatch
):
    monkeypatch.setenv("NAPLEDGER_DB", f"sqlite:///{tmp_path}/nodir/../k.db")
    nap("new x --players A,B,C")
    nap("hand 3 --by A --made")
    assert nap.json("table --json")["hands"] == 1
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".db") == ["k.db"]
    assert not (tmp_path / "nodir").exists()
    monkeypatch.setenv("NAPLEDGER_DB", str(tmp_path / "k.db"))
    assert nap.json("table --json")["hands"] == 1


def test_two_sessions_of_one_name_at_the_same_moment_get_the_same_clean_refusal():
    """The loser of a race (on PostgreSQL a unique-key clash) is told what SQLite tells it."""
    from napledger.core.errors import NapError
    from napledger.core.rules import load_rules
    from napledger.service.api import Database

    rules = load_rules("classic")
    first_created, second_done = threading.Event(), threading.Event()
    errors: list[str] = []

    def second() -> None:
        first_created.wait(30)
        try:
            with Database() as database, database.write() as tx:
                tx.new_session("race", rules, ["A", "B", "C"], Decimal(1))
        except NapError as error:
            errors.append(str(error))
        finally:
            second_done.set()

    racer = threading.Thread(target=second)
    racer.start()
    with Database() as database, database.write() as tx:
        tx.new_session("race", rules, ["A", "B", "C"], Decimal(1))
        first_created.set()
        second_done.wait(1)  # the second waits on the first's lock (or, on SQLite, BEGIN)
    racer.join(60)
    assert errors == ["there is already a session called 'race'"]


# --- full disks and read-only places (in a private mount namespace) ------------------


def in_namespace(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run `script` in sh as root of a private user and mount namespace: its mounts vanish."""
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot create a private mount namespace (unshare -rm) here")
    env = os.environ | {"NO_COLOR": "1", "NAP": f"{shlex.quote(sys.executable)} -m napledger"}
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.sqlite_only
def test_a_full_disk_is_named_with_its_folder(tmp_path):
    (tmp_path / "disk").mkdir()
    db = tmp_path / "disk" / "nap.db"
    subprocess.run(
        [sys.executable, "-m", "napledger", "--db", str(db), "new", "x", "--players", "A,B,C"],
        check=True,
        capture_output=True,
    )
    copy = tmp_path / "copy.db"
    db.rename(copy)
    result = in_namespace(
        f"mount -t tmpfs -o size=256k tmpfs disk && cp copy.db disk/nap.db && "
        f"(dd if=/dev/zero of=disk/filler bs=4k 2>/dev/null; true) && "
        f"$NAP --db {db} hand 3 --by A --made",
        tmp_path,
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith(
        f"Error: cannot write {db}: the disk holding {db.parent} is full"
    )
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.sqlite_only
def test_reading_commands_work_on_a_read_only_filesystem_and_writing_ones_say_why_not(
    tmp_path, nap
):
    (tmp_path / "ro").mkdir()
    db = tmp_path / "ro" / "nap.db"
    nap(f"--db {db} new x --players A,B,C")
    nap(f"--db {db} hand 3 --by A --made")
    out = tmp_path / "out.xlsx"
    result = in_namespace(
        "mount --bind ro ro && mount -o remount,bind,ro ro && "
        f"$NAP --db {db} table && $NAP --db {db} hands && "
        f"$NAP --db {db} export -o {out} && $NAP --db {db} hand 3 --by B --made",
        tmp_path,
    )
    assert "x: deals" in result.stdout and "A three" in result.stdout, result.stderr
    assert "Wrote" in result.stdout
    assert out.exists()
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"Error: cannot write {db}: {db.parent} is on a read-only filesystem"
    ), result.stderr


@pytest.mark.sqlite_only
def test_where_it_cannot_write_a_reader_opens_read_only_and_still_sees_the_last_deal(
    nap, db_path, monkeypatch
):
    """The choice of open mode, tested as root (who may write anywhere): pretend it cannot."""
    import sqlite3

    nap("new x --players A,B,C")
    nap("hand 3 --by A --made")
    monkeypatch.setattr("napledger.store.db._writable", lambda path: False)
    assert not Path(f"{db_path}-wal").exists()  # all in the file: opened immutable
    assert nap.json("table --json")["hands"] == 1

    # A writer still has deals in its write-ahead log: the reader must open it (mode=ro).
    holder = sqlite3.connect(db_path)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("UPDATE sessions SET name = 'renamed'")
    holder.commit()
    try:
        assert Path(f"{db_path}-wal").exists()
        assert nap.json("table --json")["session"]["name"] == "renamed"
    finally:
        holder.close()


# --- names and numbers ------------------------------------------------------------


def test_a_name_that_is_only_an_accent_is_refused(nap):
    assert "has only accent marks, no letters" in nap.fails("new x --players A,\u0301,B")


DIGIT_CASES = [
    "hand nap --by Ann --tricks \u0663",  # Arabic-Indic three
    "hand nap --by Ann -t \U0001d7d1",  # mathematical bold three
    "hand nap --by Ann --tricks 0_3",
    "hand \uff13 --by Ann --made",  # full-width three as a bid
    "hand 3 --by Ann --made --buy Ann=\u0663",
    "hand 3 --by Ann --made --buy Ann=1_0",
    "amend \u0661 --made",
    "void \u0661",
    "new y --players A,B,C --chip 1_000",
    "new y --players A,B,C --chip \u0661",
    "new y --players A,B,C --rule peep_fee=\u0663",
]


@pytest.mark.parametrize("command", DIGIT_CASES)
def test_a_number_is_ascii_digits_everywhere(nap, command):
    nap("new x --players Ann,Ben,Cat")
    nap("hand 3 --by Ann --made")
    before = nap.json("hands --json")
    usage = command.startswith(("void", "amend")) or "-t" in command  # a mistyped command line
    error = nap.fails(command, code=2 if usage else 1)
    assert "unexpected" not in error
    assert nap.json("hands --json") == before


@pytest.mark.parametrize(
    "line", ["nap ann \u0663", "\uff13 ben made", "3 ben made --buy ben=\u0663"]
)
def test_short_forms_follow_the_same_rule_for_numbers(nap, line):
    nap("new x --players Ann,Ben,Cat")
    result = nap("play", input=line + "\n", ok=False)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and len(result.stderr.splitlines()) == 1
    assert nap.json("table --json")["hands"] == 0
