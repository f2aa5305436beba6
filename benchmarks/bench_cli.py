"""How fast napledger answers between deals, against the floors set by its own libraries.

Run from the repository root: ``PYTHONPATH=. python benchmarks/bench_cli.py [--runs N]``.

Whole-process figures start a fresh interpreter each run (as a player's shell does) and
report the median of N runs, interleaved so that a busy machine slows all alike:

* ``napledger hand ...``, ``napledger table`` and ``napledger settle`` against
  ``python -c "import typer, rich, sqlmodel"`` (the libraries every one of them needs): at
  most 1.25x (issue #23); ``hand`` in Russian (its catalog read, its numbers written the
  Russian way): at most 1.3x (issue #20); and ``hand`` against ``python -c "import
  sqlmodel"``: at most 1.5x;
* the same three against those imports with Python's cycle collector off, shown with no
  target: napledger defers the collector while it starts (napledger/start.py), so this is
  what napledger itself adds to its libraries, like for like;
* ``napledger --help`` against ``python -c "import typer"``: at most 3x (Typer's Rich help
  loads Rich's help formatter; only printing help pays for it, never a command between deals);
* ``napledger variants`` against ``python -c "import typer, pydantic"``, shown with no
  target: Typer builds a pydantic adapter for each value a running command takes, and
  nothing public avoids it (a patch of Typer's privates did, at the price of a pin).

In-process figures:

* one more deal in ``play`` (recorded, committed, scoreboard printed): under 10 ms,
  measured as the difference between feeding 20 and 220 deals through the loop; and the
  same with SQLite's ``synchronous=NORMAL`` instead of napledger's ``FULL``, which shows
  what syncing every commit to the disk costs. The databases live in the temporary
  folder: point TMPDIR at the disk a ledger really lives on (on tmpfs a sync is free);
* ``amend 1`` in a session of 500 deals (every later deal re-scored and saved): under
  200 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve")
# A deal line per seat so that nobody bids while sitting out and the pot keeps moving.
DEALS = ("nap ann 5", "3 ben made", "mis cat 1", "4 dan revoke eve", "wellington eve 4")


# napledger defers Python's cycle collector while it starts (napledger/start.py): the
# libraries' imports with it off too show what napledger itself adds to them.
SAME_WITHOUT_COLLECTOR = "import gc; gc.disable(); import typer, rich, sqlmodel"


def env(db: Path) -> dict[str, str]:
    # Bytecode is cached (outside the repository) as it is for an installed package, even
    # where PYTHONDONTWRITEBYTECODE is set; the dropped first round writes it.
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return clean | {
        "PYTHONPATH": str(ROOT),
        "PYTHONPYCACHEPREFIX": str(db.parent / "pycache"),
        "NAPLEDGER_DB": str(db),
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }


def timed(argv: list[str], environ: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one run of `argv`."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=environ, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"{argv} failed with {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def whole_process(runs: int, db: Path) -> dict[str, tuple[float, float, float]]:
    """Median wall, fastest wall and median CPU seconds of each command."""
    py = sys.executable
    nap = [py, "-m", "napledger"]
    commands = {
        "import sqlmodel": [py, "-c", "import sqlmodel"],
        "import typer": [py, "-c", "import typer"],
        "import typer, pydantic": [py, "-c", "import typer, pydantic"],
        "import typer,rich,sqlmodel": [py, "-c", "import typer, rich, sqlmodel"],
        "the same, collector off": [py, "-c", SAME_WITHOUT_COLLECTOR],
        "napledger --help": [*nap, "--help"],
        "napledger variants": [*nap, "variants"],
        "napledger hand": [*nap, "hand", "3", "--by", "Ben", "--made"],
        "napledger hand, in Russian": [*nap, "--lang", "ru", "hand", "3", "--by", "Ben", "--made"],
        "napledger table": [*nap, "table"],
        "napledger settle": [*nap, "settle"],
    }
    timed([*nap, "new", "bench", "--players", ",".join(PLAYERS)], env(db))
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs + 1):  # the first round warms the disk cache and is dropped
        for name, argv in commands.items():
            times[name].append(timed(argv, env(db)))
    return {
        name: (
            statistics.median(w for w, _ in t[1:]),
            min(w for w, _ in t[1:]),
            statistics.median(c for _, c in t[1:]),
        )
        for name, t in times.items()
    }


def quietly(fn: Callable[[], object]) -> float:
    """Seconds `fn` takes, with what it prints thrown away unless it fails."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        start = time.perf_counter()
        try:
            fn()
        except SystemExit as stop:
            if stop.code:
                raise RuntimeError(f"failed ({stop.code}): {err.getvalue()}") from None
        seconds = time.perf_counter() - start
    if err.getvalue():
        raise RuntimeError(err.getvalue())
    return seconds


def play_per_deal(db: Path, synchronous: str) -> float:
    from napledger import start

    start.defer_collector()  # as the program does: its start-up is frozen as play opens
    from napledger.cli import app
    from napledger.store import db as store_db

    os.environ.update(env(db))
    store_db.SYNCHRONOUS = synchronous

    def feed(count: int) -> Callable[[], object]:
        lines = "".join(DEALS[i % len(DEALS)] + "\n" for i in range(count))

        def run() -> None:
            sys.stdin = io.StringIO(lines)
            try:
                app(["play"])
            finally:
                sys.stdin = sys.__stdin__

        return run

    quietly(lambda: app(["new", "evening", "--players", ",".join(PLAYERS)]))
    quietly(feed(5))  # imports and caches, paid once per process
    few, many = quietly(feed(20)), quietly(feed(220))
    return (many - few) / 200


def amend_in_long_session(db: Path, deals: int = 500) -> float:
    from napledger.cli import app
    from napledger.core.options import DealOptions
    from napledger.core.rules import load_rules
    from napledger.service.api import Database

    rules = load_rules("classic")
    with Database(str(db)) as database, database.write() as tx:
        tx.new_session("long", rules, list(PLAYERS), Decimal(1))
        s = tx.session("long")
        for i in range(deals):
            bidder = PLAYERS[i % len(PLAYERS)]
            s.record(DealOptions(bid="three", by=bidder, tricks=i % 6))
    os.environ["NAPLEDGER_DB"] = str(db)
    return quietly(lambda: app(["amend", "1", "--tricks", "3"]))


def verdict(value: float, limit: float) -> str:
    return "PASS" if value <= limit else "FAIL"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs per whole-process figure")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        t = whole_process(runs, tmp / "process.db")
        deal = play_per_deal(tmp / "play.db", "FULL")
        unsynced = play_per_deal(tmp / "play-normal.db", "NORMAL")
        amend = amend_in_long_session(tmp / "long.db")

    print(
        f"Whole process, median of {runs} runs ({sys.executable}, Python {sys.version.split()[0]}):"
    )
    print(f"  {'':<26} {'wall':>9} {'fastest':>9} {'cpu':>9}")
    for name, (wall, fastest, cpu) in t.items():
        print(f"  {name:<26} {wall * 1000:6.1f} ms {fastest * 1000:6.1f} ms {cpu * 1000:6.1f} ms")
    print("Ratios of median wall (verdict), fastest wall and CPU (a busy machine blurs the first):")
    limits: tuple[tuple[str, str, float | None], ...] = (
        ("napledger hand", "import typer,rich,sqlmodel", 1.25),
        ("napledger hand, in Russian", "import typer,rich,sqlmodel", 1.3),
        ("napledger table", "import typer,rich,sqlmodel", 1.25),
        ("napledger settle", "import typer,rich,sqlmodel", 1.25),
        ("napledger hand", "import sqlmodel", 1.5),
        ("napledger hand", "the same, collector off", None),
        ("napledger table", "the same, collector off", None),
        ("napledger settle", "the same, collector off", None),
        ("napledger --help", "import typer", 3.0),
        ("napledger variants", "import typer, pydantic", None),
    )
    for name, floor, limit in limits:
        wall, fastest, cpu = (t[name][i] / t[floor][i] for i in range(3))
        target = "(no target)" if limit is None else f"(at most {limit}x)  {verdict(wall, limit)}"
        print(f"  {name:<26} {wall:5.2f}x {fastest:5.2f}x {cpu:5.2f}x  of {floor:<26} {target}")
    print("In process:")
    print(f"  one more deal in play  {deal * 1000:7.1f} ms (under 10 ms)  {verdict(deal, 0.010)}")
    print(f"    without a sync each commit (synchronous=NORMAL) {unsynced * 1000:.1f} ms")
    print(f"  amend 1 of 500 deals   {amend * 1000:7.1f} ms (under 200 ms)  {verdict(amend, 0.2)}")


if __name__ == "__main__":
    main()
