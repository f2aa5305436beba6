"""How long, and how much memory, the real `napledger export` of a long session takes,
beside openpyxl's own write-only write of the very same cells.

Run:  PYTHONPATH=. python benchmarks/bench_export.py [DEALS] [--db FILE]

Builds a SQLite database of one session of DEALS deals (default 50,000) for five
players (about one in fifty voided, one in twenty amended), written straight into the
tables the way `napledger hand` writes them (recording 50,000 deals one command at a
time would take an hour). `--db FILE` keeps the database for the next run.

Then, each in a fresh process of its own, measured side by side:
- the export: `python -m napledger --db FILE export bench -o OUT.xlsx --force`, the
  real command, reading the store, scoring the history and writing the workbook;
- the floor: openpyxl in write-only mode writing the cells the export wrote (every
  sheet's values and number formats, read back from its workbook beforehand and fed
  from a file row by row), with no logic of ours.
It prints the wall time and peak resident memory (ru_maxrss of each process, started
from a small launcher so that it is the process's own) and the
export's ratio to the floor in both. Targets: memory within 2x, time within 1.5x. A
figure to watch, not a timed test. Beside them: the peak of Python with openpyxl and
sqlmodel imported and nothing done, the least an export read from the store can weigh.
"""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

PLAYERS = ("Ann", "Ben", "Boris", "Dan", "Eve")
MEMORY_TARGET, TIME_TARGET = 2.0, 1.5


def build_database(path: Path, deals: int, seed: int = 1) -> None:
    """One session of ``deals`` deals, scored and posted as `hand` would post them."""
    from sqlalchemy import insert

    from napledger.core.ledger import POT, changes_from
    from napledger.core.options import DealOptions, make_deal
    from napledger.core.rules import Deal, score_deal
    from napledger.core.rules.load import load_rules
    from napledger.service.api import Database
    from napledger.store.codec import deal_to_json
    from napledger.store.models import deals as deals_table
    from napledger.store.models import entries

    rng = random.Random(seed)
    rules = load_rules("classic")
    database = Database(f"sqlite:///{path}")
    with database.write() as tx:
        tx.new_session("bench", rules, PLAYERS, chip_value=Decimal("0.05"), currency="GBP")
        session_id = tx.session("bench").info.id
    pot, deal_id = 0, 0
    deal_rows: list[dict[str, object]] = []
    entry_rows: list[dict[str, object]] = []

    def flush() -> None:
        with database.write() as tx:
            db = tx.book.db
            if deal_rows:
                db.execute(insert(deals_table), deal_rows)
            if entry_rows:
                db.execute(insert(entries), entry_rows)
        deal_rows.clear()
        entry_rows.clear()

    for number in range(1, deals + 1):
        fresh = Deal(seated=PLAYERS, dealer=PLAYERS[(number - 1) % len(PLAYERS)])
        bid = rng.choice(("three", "four", "nap", "misere", "pass"))
        outcome = {"made": True} if rng.random() < 0.6 else {"failed": True}
        options = DealOptions(bid=bid, by=rng.choice(PLAYERS), **outcome)
        if bid == "pass":
            options = DealOptions(bid="pass")
        deal = make_deal(options, rules, fresh, PLAYERS)
        roll = rng.random()
        revisions = []
        if roll < 0.02:
            revisions.append(("voided", deal, False))
        else:
            if roll < 0.07:
                revisions.append(("replaced", deal, False))
            revisions.append(("live", deal, True))
        for revision, (status, record, live) in enumerate(revisions, 1):
            deal_id += 1
            changes = changes_from(score_deal(rules, record, pot)) if live else {}
            after = pot + changes.get(POT, 0)
            deal_rows.append(
                dict(
                    id=deal_id,
                    session_id=session_id,
                    number=number,
                    revision=revision,
                    status=status,
                    record_json=deal_to_json(record),
                    pot_after=after if live else pot,
                )
            )
            if live:
                pot = after
                entry_rows.extend(
                    dict(session_id=session_id, deal_id=deal_id, account=a, chips=c)
                    for a, c in changes.items()
                    if c
                )
        if len(deal_rows) >= 5_000:
            flush()
    flush()


def measured(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of one process running ``command``.

    Started from a small launcher process: Linux counts in a child's ru_maxrss the
    memory of the process it was forked from, which here has built the database.
    """
    launcher = [sys.executable, __file__, "--measure", *command]
    done = subprocess.run(launcher, capture_output=True, text=True, check=True)
    elapsed, peak = done.stdout.split()
    return float(elapsed), float(peak)


def run_measured(command: list[str]) -> None:
    """In the launcher: run ``command`` and print its wall seconds and peak MiB."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{command[:4]} failed")
    print(elapsed, usage.ru_maxrss / 1024)  # KiB on Linux


def dump_cells(workbook: Path, cells: Path) -> int:
    """Every sheet's rows (values and number formats) of ``workbook``, pickled one a row."""
    from openpyxl import load_workbook

    wb = load_workbook(workbook, read_only=True)
    rows = 0
    with cells.open("wb") as out:
        for ws in wb.worksheets:
            pickle.dump(("sheet", ws.title), out)
            for row in ws.iter_rows():
                pickle.dump([(c.value, c.number_format) for c in row], out)
                rows += 1
    wb.close()
    return rows


def write_floor(cells: Path, path: Path) -> None:
    """openpyxl alone: the same cells written in write-only mode, nothing else."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    wb = Workbook(write_only=True)
    ws = None
    with cells.open("rb") as source:
        while True:
            try:
                row = pickle.load(source)
            except EOFError:
                break
            if isinstance(row, tuple):
                ws = wb.create_sheet(row[1])
                continue
            assert ws is not None
            out: list[object] = []
            for value, fmt in row:
                if fmt == "General" or value is None:
                    out.append(value)
                else:
                    cell = WriteOnlyCell(ws, value=value)
                    cell.number_format = fmt
                    out.append(cell)
            ws.append(out)
    wb.save(path)


def cli(db: Path) -> list[str]:
    return [sys.executable, "-m", "napledger", "--db", f"sqlite:///{db}"]


def main() -> None:
    if sys.argv[1:2] == ["--measure"]:
        run_measured(sys.argv[2:])
        return
    if sys.argv[1:2] == ["--floor"]:
        write_floor(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    args = sys.argv[1:]
    keep = Path(args[args.index("--db") + 1]) if "--db" in args else None
    numbers = [a for a in args if a.isdigit()]
    deals = int(numbers[0]) if numbers else 50_000
    with tempfile.TemporaryDirectory() as folder:
        db = keep or Path(folder) / "bench.db"
        if not db.exists():
            started = time.perf_counter()
            build_database(db, deals)
            print(f"database built:   {deals:,} deals in {time.perf_counter() - started:.0f} s")
        out, cells, floor = (Path(folder) / n for n in ("export.xlsx", "cells.pickle", "f.xlsx"))
        env_db = ["--db", f"sqlite:///{db}"]
        export = measured(
            [
                sys.executable,
                "-m",
                "napledger",
                *env_db,
                "export",
                "bench",
                "-o",
                str(out),
                "--force",
            ]
        )
        rows = dump_cells(out, cells)
        base = measured([sys.executable, __file__, "--floor", str(cells), str(floor)])
        size = out.stat().st_size
        # What each process takes before any row: the same export of a 10-deal session,
        # and Python with openpyxl imported.
        small = Path(folder) / "small.db"
        build_database(small, 10)
        export_idle = measured(
            [*cli(small), "export", "bench", "-o", str(Path(folder) / "s.xlsx"), "--force"]
        )[1]
        floor_idle = measured([sys.executable, "-c", "import openpyxl"])[1]
        # The least any export from the store can weigh: its writer and the store's library.
        libraries_idle = measured([sys.executable, "-c", "import openpyxl, sqlmodel"])[1]
    (time_export, rss_export), (time_floor, rss_floor) = export, base
    print(f"cells written:    {rows:,} rows over all sheets; file {size / 2**20:.1f} MiB")
    print(f"export:           {time_export:.1f} s, peak {rss_export:.0f} MiB")
    print(f"openpyxl alone:   {time_floor:.1f} s, peak {rss_floor:.0f} MiB")
    memory, speed = rss_export / rss_floor, time_export / time_floor
    print(f"memory ratio:     {memory:.2f}x (target <= {MEMORY_TARGET}x)")
    print(f"time ratio:       {speed:.2f}x (target <= {TIME_TARGET}x)")
    grown, floor_grown = rss_export - export_idle, rss_floor - floor_idle
    print(
        f"before any row:   export {export_idle:.0f} MiB (its imports: CLI, database layer,"
        f" openpyxl), openpyxl alone {floor_idle:.0f} MiB"
    )
    print(f"grown by writing: export {grown:+.0f} MiB, openpyxl alone {floor_grown:+.0f} MiB")
    print(
        f"openpyxl and sqlmodel imported, nothing else: {libraries_idle:.0f} MiB,"
        f" {libraries_idle / rss_floor:.2f}x openpyxl alone's peak (the least an export from"
        " the store can weigh)"
    )


if __name__ == "__main__":
    main()
