"""What one more deal costs in table mode (`play`), early in the evening and late.

Run from the repository root: ``PYTHONPATH=. python benchmarks/bench_play.py [--long N]``.

A deal line goes through the loop as a player types it (parsed, recorded, committed with
SQLite's synchronous=FULL, scoreboard printed). Each figure is the difference between
feeding 60 and 10 lines (the best of five tries of each, taken in turns: a busy machine
only ever adds time), divided by 50, so the loop's start-up is left out:

* in a session of 10 deals: at most 3 ms a deal;
* in a session of 5,000 deals (written in bulk, as the book writes them): at most 1.2x
  the figure at 10 deals, measured in the same run;
* the same two with SQLite's ``synchronous=NORMAL`` instead of napledger's ``FULL``,
  shown with no target: what syncing each commit to the disk costs a deal there (FULL is
  kept: a deal said saved survives a power cut);
* transactions and SQL statements a deal runs, counted with SQLAlchemy's events (one
  transaction; the count must not grow with the session);
* ``napledger hands`` of the long session as a whole process (bytecode cached, 100
  columns, so that the payments fold): under 1.5 s, shown beside
  ``python -c "import typer, rich, sqlmodel"`` measured in the same run.

The databases live in the temporary folder: point TMPDIR at the disk a ledger really
lives on (on tmpfs a sync is free).
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
from typing import Any

from sqlalchemy import event, func, insert, select

from napledger import start
from napledger.core.ledger import changes_from
from napledger.core.options import DealOptions, make_deal
from napledger.core.rules import Deal, load_preset
from napledger.core.rules.scoring import replay
from napledger.service.api import Database
from napledger.store import db as store_db
from napledger.store.codec import deal_to_json
from napledger.store.models import deals as deals_table
from napledger.store.models import entries

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve")
# A deal line per seat so that nobody bids while sitting out and the pot keeps moving.
LINES = ("nap ann 5", "3 ben made", "mis cat 1", "4 dan revoke eve", "wellington eve 4")
OPTIONS = (
    DealOptions(bid="nap", by="Ann", tricks=5),
    DealOptions(bid="three", by="Ben", made=True),
    DealOptions(bid="misere", by="Cat", tricks=1),
    DealOptions(bid="four", by="Dan", revoke="Eve"),
    DealOptions(bid="wellington", by="Eve", tricks=4),
)
FEW, MANY, TRIES = 10, 60, 5


def build(url: str, name: str, deals: int) -> None:
    """A session of `deals` deals, scored by the rules and written in bulk as the book
    writes them (records, changes, the pot after each)."""
    rules = load_preset("classic")
    with Database(url) as database, database.write() as tx:
        tx.new_session(name, rules, list(PLAYERS), Decimal("0.05"), "GBP")
        row = tx.session(name).row
        records: list[Deal] = []
        for i in range(deals):
            fresh = Deal(seated=PLAYERS, dealer=PLAYERS[i % len(PLAYERS)], dealer_named=False)
            records.append(make_deal(OPTIONS[i % len(OPTIONS)], rules, fresh, PLAYERS))
        deal_rows, entry_rows = [], []
        base = tx.book.db.execute(select(func.coalesce(func.max(deals_table.c.id), 0))).scalar()
        for number, scored in enumerate(replay(rules, records), 1):
            deal_rows.append(
                {
                    "id": base + number,
                    "session_id": row.id,
                    "number": number,
                    "record_json": deal_to_json(scored.deal),
                    "pot_after": scored.pot_after,
                }
            )
            entry_rows += [
                {"session_id": row.id, "deal_id": base + number, "account": a, "chips": c}
                for a, c in changes_from(scored.payments).items()
                if c
            ]
        if deal_rows:
            tx.book.db.execute(insert(deals_table), deal_rows)
            tx.book.db.execute(insert(entries), entry_rows)


def feed(session: str, count: int) -> Callable[[], None]:
    from napledger.cli import app

    lines = "".join(LINES[i % len(LINES)] + "\n" for i in range(count))

    def run() -> None:
        sys.stdin = io.StringIO(lines)
        err = io.StringIO()
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                app(["play", "--session", session])
        except SystemExit as stop:
            if stop.code:
                raise RuntimeError(f"play failed ({stop.code}): {err.getvalue()}") from None
        finally:
            sys.stdin = sys.__stdin__

    return run


def seconds(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def per_deal(sessions: list[str]) -> list[float]:
    """Seconds one more deal line costs in `play` in each session, start-up left out:
    the sessions take turns, so that a busy spell of the machine slows them alike."""
    inf = float("inf")
    fewest, most = [inf] * len(sessions), [inf] * len(sessions)
    for _ in range(TRIES):
        for i, session in enumerate(sessions):
            fewest[i] = min(fewest[i], seconds(feed(session, FEW)))
            most[i] = min(most[i], seconds(feed(session, MANY)))
    return [(m - f) / (MANY - FEW) for f, m in zip(fewest, most, strict=True)]


class Counter:
    """Transactions begun and statements run on every engine napledger makes."""

    def __init__(self) -> None:
        self.begins = self.statements = 0
        self.on = False

    def attach(self) -> None:
        from sqlalchemy.engine import Engine

        event.listen(Engine, "begin", self._begin)
        event.listen(Engine, "before_cursor_execute", self._statement)

    def _begin(self, *_: Any) -> None:
        self.begins += self.on

    def _statement(self, *_: Any) -> None:
        self.statements += self.on

    def per_deal(self, session: str) -> tuple[float, float]:
        few, many = feed(session, FEW), feed(session, MANY)
        counts = []
        for fn in (few, many):
            self.begins = self.statements = 0
            self.on = True
            fn()
            self.on = False
            counts.append((self.begins, self.statements))
        (b1, s1), (b2, s2) = counts
        return (b2 - b1) / (MANY - FEW), (s2 - s1) / (MANY - FEW)


def whole_process(db: Path, runs: int = 3) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds of `hands` of the long session and of its libraries'
    imports, taken in turns after a first round that writes the bytecode."""
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environ = clean | {
        "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
        "PYTHONPYCACHEPREFIX": str(db.parent / "pycache"),
        "NAPLEDGER_DB": str(db),
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }
    commands = {
        "import typer, rich, sqlmodel": [sys.executable, "-c", "import typer, rich, sqlmodel"],
        "napledger hands (long)": [sys.executable, "-m", "napledger", "hands", "-s", "long"],
    }
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs + 1):
        for name, argv in commands.items():
            start = time.perf_counter()
            child = subprocess.Popen(argv, env=environ, stdout=subprocess.DEVNULL)
            _, status, usage = os.wait4(child.pid, 0)
            if os.waitstatus_to_exitcode(status):
                raise RuntimeError(f"{argv} failed")
            times[name].append((time.perf_counter() - start, usage.ru_utime + usage.ru_stime))
    return {
        name: (statistics.median(w for w, _ in t[1:]), statistics.median(c for _, c in t[1:]))
        for name, t in times.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", type=int, default=5_000, help="deals in the long session")
    long_deals = parser.parse_args().long
    start.defer_collector()  # as the program does: its start-up is frozen as play opens
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "play.db"
        os.environ.update(NAPLEDGER_DB=str(db), NO_COLOR="1", COLUMNS="100")
        build(str(db), "short", 0)
        build(str(db), "long", long_deals)
        feed("short", 10)()  # imports and caches, paid once per process; now 10 deals
        short, long = per_deal(["short", "long"])
        store_db.SYNCHRONOUS = "NORMAL"  # each `play` opens its own connection with it
        unsynced = per_deal(["short", "long"])
        store_db.SYNCHRONOUS = "FULL"
        counter = Counter()
        counter.attach()
        short_counts = counter.per_deal("short")
        long_counts = counter.per_deal("long")
        processes = whole_process(db)
    ratio = long / short
    print(f"One more deal in play (Python {sys.version.split()[0]}, {os.cpu_count()} cores):")
    verdict = "PASS" if short <= 0.003 else "FAIL"
    print(f"  in a session of 10 deals     {short * 1000:6.2f} ms   (at most 3 ms)  {verdict}")
    print(f"  in a session of {long_deals:,} deals {long * 1000:6.2f} ms")
    verdict = "PASS" if ratio <= 1.2 else "FAIL"
    print(f"  ratio, long to short         {ratio:6.2f}x   (at most 1.2x)  {verdict}")
    print(
        f"  without a sync each commit (synchronous=NORMAL): {unsynced[0] * 1000:.2f} ms at 10"
        f" deals, {unsynced[1] * 1000:.2f} ms at {long_deals:,}"
    )
    for label, (begins, statements) in (("short", short_counts), ("long", long_counts)):
        print(f"  per deal ({label:>5}): {begins:.1f} transactions, {statements:.1f} statements")
    print("Whole process, median of 3 (wall, CPU):")
    for name, (wall, cpu) in processes.items():
        print(f"  {name:<30} {wall:6.2f} s {cpu:6.2f} s")
    hands, floor = processes["napledger hands (long)"], processes["import typer, rich, sqlmodel"]
    verdict = "PASS" if hands[0] < 1.5 else "FAIL"
    print(f"  hands of {long_deals:,} deals: {hands[0]:.2f} s (under 1.5 s)  {verdict}")
    print(
        f"    {hands[0] / floor[0]:.1f}x its libraries' imports (wall), {hands[1] / floor[1]:.1f}x (CPU)"
    )


if __name__ == "__main__":
    main()
