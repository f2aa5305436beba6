"""What happens around a running ledger: its file deleted, replaced or hard-linked.

A real `napledger play` process fed through a pipe while the file changes under it;
one-shot commands (through a second name of the same file, or to look at what play
wrote) run in this process, as the other CLI tests do: what they check is the file.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from napledger.cli import app
from tests.conftest import Runner

pytestmark = pytest.mark.sqlite_only


def napledger(db: Path, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    ran = Runner().invoke(app, list(argv), env={"NAPLEDGER_DB": str(db), "NO_COLOR": "1"})
    result = subprocess.CompletedProcess(argv, ran.exit_code, ran.stdout, ran.stderr)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def deals(db: Path) -> int:
    return json.loads(napledger(db, "table", "--json").stdout)["hands"]


class Play:
    """A `napledger play` reading lines from a pipe, as a replayed evening does."""

    def __init__(self, db: Path) -> None:
        env = os.environ | {"NAPLEDGER_DB": str(db), "NO_COLOR": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "napledger", "play"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def deal(self, line: str) -> str:
        """Send one deal and wait for its scoreboard; the whole of what it printed."""
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        out = []
        while not out or not out[-1].startswith("Next to deal:"):
            text = self.process.stdout.readline()
            assert text, "play stopped"
            out.append(text)
        return "".join(out)

    def finish(self, *lines: str) -> tuple[int, str, str]:
        out, err = self.process.communicate("".join(line + "\n" for line in lines), timeout=60)
        return self.process.returncode, out, err


def start(tmp_path: Path) -> Path:
    db = tmp_path / "club" / "napledger.db"
    napledger(db, "new", "fri", "--players", "Ann,Ben,Cat,Dan")
    return db


def test_a_deal_typed_after_the_database_folder_is_deleted_is_refused_and_shown_again(tmp_path):
    db = start(tmp_path)
    play = Play(db)
    assert "Deal 1 · Ann dealt" in play.deal("nap ann 5")
    shutil.rmtree(db.parent)

    code, out, err = play.finish("3 ben made", "4 cat 4")

    assert code == 1
    assert "Deal 2" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("Error: ") for line in lines)
    assert f"{db} is no longer the database file" in lines[0]
    assert lines[0].endswith("not saved: 3 ben made")
    assert lines[1].endswith("not saved: 4 cat 4")
    assert not db.parent.exists()  # nothing was written anywhere under that path


def test_a_backup_restored_over_the_file_under_play_is_not_written_into(tmp_path):
    db = start(tmp_path)
    backup = tmp_path / "backup.db"
    shutil.copy(db, backup)
    play = Play(db)
    assert "Deal 1" in play.deal("nap ann 5")
    restored = tmp_path / "restoring.db"
    shutil.copy(backup, restored)
    os.replace(restored, db)  # as a restore tool does: the path now names another file

    code, out, err = play.finish("3 ben made")

    assert code == 1 and "Deal 2" not in out
    assert err.strip().endswith("not saved: 3 ben made")
    # Nothing typed after the restore went anywhere. (What the restored file now shows
    # also depends on the old file's -wal left beside it: restore only with napledger
    # stopped, as the README says.)
    hands = json.loads(napledger(db, "hands", "--json").stdout)
    assert [d["bidder"] for d in hands] in ([], ["Ann"])


def test_play_keeps_writing_while_its_file_stays_put(tmp_path):
    db = start(tmp_path)
    play = Play(db)
    play.deal("nap ann 5")
    os.utime(db)  # touched, not replaced: the same file
    play.deal("3 ben made")
    code, _, err = play.finish()
    assert code == 0 and err == ""
    assert deals(db) == 2


def test_a_database_file_with_two_names_is_refused_for_writing_and_reading(tmp_path):
    db = start(tmp_path)
    other = tmp_path / "other.db"
    os.link(db, other)

    for path in (db, other):
        result = napledger(path, "hand", "nap", "--by", "Ann", "--tricks", "5", check=False)
        assert result.returncode == 1
        assert result.stderr.startswith(f"Error: {path} has 2 hard links;")
        assert len(result.stderr.splitlines()) == 1
        assert napledger(path, "table", check=False).returncode == 1

    other.unlink()
    assert deals(db) == 0  # nothing was written through either name
    napledger(db, "hand", "nap", "--by", "Ann", "--tricks", "5")
    assert deals(db) == 1


def test_a_hard_link_made_under_a_running_play_stops_its_writes(tmp_path):
    db = start(tmp_path)
    play = Play(db)
    play.deal("nap ann 5")
    os.link(db, tmp_path / "other.db")

    code, out, err = play.finish("3 ben made")

    assert code == 1 and "Deal 2" not in out
    assert "has 2 hard links" in err and err.strip().endswith("not saved: 3 ben made")


def test_at_a_terminal_the_refused_line_is_one_arrow_key_away(tmp_path):
    """Typed at a real terminal (a pty): the refused line stays in the line history."""
    import pty
    import select

    db = start(tmp_path)
    env = os.environ | {"NAPLEDGER_DB": str(db), "NO_COLOR": "1", "TERM": "xterm"}
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "napledger", "play"],
        env=env,
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        close_fds=True,
    )
    os.close(terminal)
    seen = b""

    def until(text: bytes) -> None:
        nonlocal seen
        while text not in seen:
            # What `play` writes next; nothing for a minute: it is not coming.
            assert select.select([controller], [], [], 60)[0], seen.decode(errors="replace")
            seen += os.read(controller, 4096)

    try:
        until(b"deals> ")
        os.write(controller, b"nap ann 5\r")
        until(b"Next to deal:")
        shutil.rmtree(db.parent)
        os.write(controller, b"3 ben made\r")
        until(b"not saved: 3 ben made")
        seen = b""
        os.write(controller, b"\x1b[A\r")  # arrow up: the same line again
        until(b"not saved: 3 ben made")
        os.write(controller, b"quit\r")
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
        os.close(controller)
