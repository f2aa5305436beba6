"""What a tired player may type: every wrong command fails in one line and changes nothing.

Each case runs against the same ledger (a copy per test) and must exit non-zero with one
`Error:` line on stderr, no traceback, and leave `hands --json` and `table --json` of every
session exactly as they were.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sqlite3
from pathlib import Path

import pytest

from napledger.cli import app
from tests.conftest import Runner

SESSIONS = ("open", "done")
LEDGER = [
    "new done --players X,Y,Z",
    "hand 3 --by X --made",
    "close",
    "new open --players Ann,Anna,Bob,Cy,Di,Ed --dealer Ed --rule pool=on --rule purchase_max_dealt=off",
    "hand three --by Ann --made",
    "hand four --by Bob --tricks 2 --peep Cy",
    "pass --buy Di=2",
]

LONG = "N" * 5000
GOOD_RULES = """
name = "house"
min_players = 3
max_players = 5
hand_size = 5
[[bids]]
name = "three"
tricks = 3
win = 3
lose = 3
"""
RULE_FILES = {
    "fractional.toml": GOOD_RULES.replace("win = 3", "win = 2.5"),
    "unknown-key.toml": GOOD_RULES + "colour = 'red'\n",
    "unknown-setting.toml": GOOD_RULES + "[settings]\nsilly = true\n",
    "broken.toml": GOOD_RULES + "[[bids]\nname = ",
    "ladder.toml": GOOD_RULES + "[[bids]]\nname = 'two'\ntricks = 2\nwin = 2\nlose = 2\n",
    "no-bids.toml": GOOD_RULES.split("[[bids]]")[0],
    "negative.toml": GOOD_RULES.replace("lose = 3", "lose = -3"),
    "big-table.toml": GOOD_RULES.replace("max_players = 5", "max_players = 11"),
    "binary.toml": "\udcff\udcfe",  # written as undecodable bytes
}

CASES = {
    # players
    "unknown player": "hand three --by Zed --made",
    "misspelt player": "hand three --by Bobb --made",
    "ambiguous prefix": "hand three --by an --made",
    "blank player": "hand three --by '  ' --made",
    "unknown peeper": "hand three --by Bob --made --peep Zed",
    "peeps twice": "pass --peep Cy --peep cy",
    "bad purchase": "pass --buy Di=x",
    "purchase too big": "pass --buy Di=99",
    "purchase without a count": "pass --buy Di",
    # bids and outcomes
    "bid the variant lacks": "hand seven --by Ann --made",
    "bid switched off": "hand two --by Ann --made",
    "empty bid": "hand '' --by Ann --made",
    "tricks too many": "hand nap --by Ann --tricks 6",
    "tricks negative": "hand nap --by Ann --tricks -1",
    "tricks not a number": "hand nap --by Ann --tricks five",
    "tricks absurd": "hand nap --by Ann --tricks 99999999999999999999999999",
    "made and failed": "hand nap --by Ann --made --failed",
    "tricks and made": "hand nap --by Ann --tricks 5 --made",
    "no outcome": "hand nap --by Ann",
    "no bidder": "hand nap --tricks 5",
    "revoker sits out as dealer": "hand nap --by Ann --dealer Di --revoke Di",
    "bidder sits out as dealer": "hand nap --by Di --dealer Di --made",
    "unknown revoker": "hand nap --by Ann --revoke Zed",
    # deals
    "void a deal that does not exist": "void 99",
    "void deal zero": "void 0",
    "amend a deal that does not exist": "amend 99 --tricks 3",
    "amend to the same": "amend 1 --made",
    "amend to a bid the variant lacks": "amend 1 seven",
    "unknown command": "hnad three --by Ann --made",
    # sessions
    "closed session": "hand three --by X --made --session done",
    "undo in a closed session": "undo --session done",
    "unknown session": "hand three --by Ann --made --session nosuch",
    "unknown session id": "table --session 99",
    "use an unknown session": "use nosuch",
    "session name taken": "new OPEN --players P,Q,R",
    "session name of digits": "new 123 --players P,Q,R",
    "carry from a split pot": "new next --players P,Q,R --carry-from done",
    "close to a stranger": "close --pot Zed",
    "join someone seated": "join ANN",
    "join a closed session": "join Fay --session done",
    "close with an empty pot taker": "close --pot ''",
    "leave someone not seated": "leave Zed",
    # new sessions and rules
    "player named twice": "new x --players A,B,a",
    "too few players": "new x --players A,B",
    "player called pot": "new x --players A,Pot,B",
    "comma-only players": "new x --players ,,,",
    "unknown first dealer": "new x --players A,B,C --dealer Zed",
    "unknown variant": "new x --players A,B,C --variant nosuch",
    "unknown rule key": "new x --players A,B,C --rule nosuch=1",
    "fractional rule value": "new x --players A,B,C --rule peep_fee=1.5",
    "negative rule value": "new x --players A,B,C --rule peep_fee=-1",
    "bad switch": "new x --players A,B,C --rule pool=maybe",
    "rule without a value": "new x --players A,B,C --rule pool",
    "chip of zero": "new x --players A,B,C --chip 0",
    "chip not money": "new x --players A,B,C --chip abc",
    "chip not a number": "new x --players A,B,C --chip NaN",
    "chip absurd": "new x --players A,B,C --chip 1e400",
    "dealer sits out too soon": "new x --players A,B,C --rule dealer_sits_out_from=1",
    "missing rule file": "new x --players A,B,C --variant {tmp}/missing.toml",
    **{
        f"rule file {name}": f"new x --players A,B,C --variant {{tmp}}/{name}"
        for name in RULE_FILES
    },
    # names
    "absurdly long session name": f"new {LONG} --players A,B,C",
    "absurdly long player name": f"new x --players {LONG},B,C",
    "absurdly long player typed": f"hand three --by {LONG} --made",
    "control characters in a session name": "new $'x\\x1b[31my' --players A,B,C",
    "control characters in a player name": "new x --players $'A\\x07',B,C",
    "control characters in a currency": "new x --players A,B,C --currency $'G\\x00B'",
    # files that are not ledgers, and places that cannot hold one
    "not a database, reading": "--db {tmp}/notes.db table",
    "not a database, writing": "--db {tmp}/notes.db new x --players A,B,C",
    "nonexistent database, reading": "--db {tmp}/nothing-here.db table",
    "path under /proc": "--db /proc/nope/ledger.db new x --players A,B,C",
    "path under a regular file": "--db {tmp}/notes.db/ledger.db new x --players A,B,C",
    "a directory as the database": "--db {tmp} new x --players A,B,C",
    "another program's database, reading": "--db {tmp}/other.sqlite table",
    "another program's database, writing": "--db {tmp}/other.sqlite new x --players A,B,C",
    "unknown database driver": "--db nosuch://host/db table",
    "garbled database address": "--db 'sqlite:////proc/nope/x.db' new x --players A,B,C",
}


def words(line: str) -> list[str]:
    """Split like a shell, including $'...' strings with escapes."""
    out = []
    for word in shlex.split(line.replace("$'", "'$")):
        if word.startswith("$"):
            word = word[1:].encode().decode("unicode_escape")
        out.append(word)
    return out


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """The ledger every case starts from, and what `hands`/`table` showed of it."""
    folder = tmp_path_factory.mktemp("ledger")
    path = folder / "nap.db"
    runner = Runner()
    env = {"NAPLEDGER_DB": str(path), "NO_COLOR": "1"}
    for line in LEDGER:
        result = runner.invoke(app, shlex.split(line), env=env)
        assert result.exit_code == 0, result.output
    return path, snapshot(runner, env)


def snapshot(runner: Runner, env: dict[str, str]) -> dict[str, object]:
    shown: dict[str, object] = {}
    for session in SESSIONS:
        for command in ("hands", "table"):
            result = runner.invoke(app, [command, "--json", "--session", session], env=env)
            assert result.exit_code == 0, result.output
            shown[f"{command} {session}"] = json.loads(result.stdout)
    shown["sessions"] = json.loads(runner.invoke(app, ["sessions", "--json"], env=env).stdout)
    return shown


@pytest.mark.parametrize("line", CASES.values(), ids=CASES.keys())
def test_bad_input_fails_in_one_line_and_changes_nothing(line, template, db_path, tmp_path):
    original, before = template
    for suffix in ("", "-wal"):
        if Path(f"{original}{suffix}").exists():
            shutil.copy(f"{original}{suffix}", f"{db_path}{suffix}")
    for name, text in RULE_FILES.items():
        (tmp_path / name).write_bytes(text.encode("utf-8", "surrogateescape"))
    not_a_db = tmp_path / "notes.db"
    not_a_db.write_bytes(b"shopping: eggs, milk\n" * 100)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE sessions (id INTEGER PRIMARY KEY, title TEXT)")
    db.close()
    other_bytes = other.read_bytes()
    runner = Runner()
    env = {"NAPLEDGER_DB": str(db_path), "NO_COLOR": "1"}

    result = runner.invoke(app, words(line.format(tmp=tmp_path)), env=env)

    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "unexpected" not in lines[0]  # the last line of defence is for bugs
    assert not_a_db.read_bytes() == b"shopping: eggs, milk\n" * 100
    assert other.read_bytes() == other_bytes
    assert not (tmp_path / "nothing-here.db").exists()
    assert snapshot(runner, env) == before


def test_the_corpus_is_big_enough():
    assert len(CASES) >= 40
    assert os.environ["NAPLEDGER_DB"]  # the autouse fixture keeps the corpus off real data
