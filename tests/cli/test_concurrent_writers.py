"""Several real processes writing one ledger at once: each deal numbered once, nothing lost.

And a writer killed at any moment leaves the last committed state whole.
"""

from __future__ import annotations

import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("A", "B", "C", "D")


def env(db_path: Path) -> dict[str, str]:
    return os.environ | {
        "NAPLEDGER_DB": str(db_path),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "NO_COLOR": "1",
    }


def napledger(db_path: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "napledger", *args],
        env=env(db_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_many_processes_record_deals_into_one_session_at_once(nap, db_path):
    nap("new shared --players A,B,C,D")
    nap("new other --players W,X,Y")  # a second table sharing the file
    commands = [
        ["hand", "3", "--by", PLAYERS[i % 4], "--made", "--session", "shared"] for i in range(5)
    ]
    commands += [["pass", "--session", "shared"]]
    commands += [["hand", "nap", "--by", "W", "--tricks", "5", "--session", "other"]] * 2
    processes = [napledger(db_path, *c) for c in commands]
    results = [(p.wait(timeout=60), *p.communicate()) for p in processes]
    for code, _, err in results:
        assert code == 0 and "locked" not in err and "Error" not in err, err

    shared = nap.json("hands --json --session shared")
    assert sorted(h["number"] for h in shared) == list(range(1, 7))
    assert sum(h["bid"] is None for h in shared) == 1
    printed = sorted(int(re.search(r"Deal (\d+)", out)[1]) for _, out, _ in results[:6])
    assert printed == list(range(1, 7))  # each process was told a different number
    assert sorted(h["number"] for h in nap.json("hands --json --session other")) == [1, 2]
    assert nap.chips("other") == {"W": 40, "X": -20, "Y": -20}
    assert sum(nap.chips("shared").values()) == 0
    nap("verify")


WRITER = """
import sys
from napledger.cli import app
while True:
    app(["hand", "3", "--by", sys.argv[1], "--made"], standalone_mode=False)
    sys.stdout.flush()
"""


def writing(writer: subprocess.Popen[str]) -> str:
    """What `writer` printed up to its first deal, read as it comes (30 s at most)."""
    assert writer.stdout is not None
    said = ""
    while "Deal" not in said:
        ready, _, _ = select.select([writer.stdout], [], [], 30)
        line = writer.stdout.readline() if ready else ""
        if not line:  # silent for 30 s, or gone: the checks below say what it wrote
            break
        said += line
    return said


def test_writers_killed_mid_write_leave_a_whole_ledger(nap, db_path):
    nap("new crash --players A,B,C,D")
    rng = random.Random(4)
    texts = []
    for _round in range(2):
        writers = [
            subprocess.Popen(
                [sys.executable, "-u", "-c", WRITER, player],
                env=env(db_path),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for player in PLAYERS[:3]
        ]
        # Kill them once they are all writing (each has told of a deal), each at a random
        # moment of its work.
        said = [writing(writer) for writer in writers]
        for writer in writers:
            time.sleep(rng.random() / 20)  # the random moment: not a wait for anything
            writer.send_signal(signal.SIGKILL)
            writer.wait(timeout=30)
        for writer, first in zip(writers, said, strict=True):
            assert writer.stdout is not None
            texts.append(first + writer.stdout.read())
            writer.stdout.close()

    assert not any("locked" in t or "Traceback" in t or "Error" in t for t in texts), texts
    reported = {int(n) for t in texts for n in re.findall(r"Deal (\d+)", t)}
    assert len(reported) >= 6, "too few deals were written for the test to mean anything"
    doc = json.loads(nap("verify --json").stdout)
    assert doc["ok"], doc["problems"]
    numbers = [h["number"] for h in nap.json("hands --json")]
    assert numbers == list(range(1, len(numbers) + 1))
    assert reported <= set(numbers)  # every deal a writer was told about is there
