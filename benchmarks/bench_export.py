"""How long, and how much memory, exporting one very long session takes.

Run:  PYTHONPATH=. python benchmarks/bench_export.py [DEALS] [--tracemalloc]

Builds DEALS synthetic deals (default 50,000) for six players, about one in
twenty amended and one in fifty voided, with a ledger of every transfer, then
writes the workbook with ``write_workbook`` and prints wall time and the
process's peak resident set (ru_maxrss) before and after the write, the input
data included. Then it times the floor: openpyxl in write-only mode writing
the same cells (every deal, ledger and balance row, values only) with no logic,
no styles and no tables, and prints the export's time relative to it, so the
gap to what the library itself can do is visible. With --tracemalloc it writes
once more under tracemalloc and prints the peak of Python allocations made by
the write alone (slow: tracing costs several times the wall time). A figure to
watch, not a timed test.
"""

from __future__ import annotations

import random
import resource
import sys
import tempfile
import time
import tracemalloc
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

from openpyxl import Workbook

from napledger.export.data import DealRow, LedgerRow, SessionExport, StakeRow
from napledger.export.workbook import write_workbook

PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve", "=Fay")
STAKES = (
    StakeRow("three", 3, 3, 3),
    StakeRow("misère", 0, 3, 3),
    StakeRow("four", 4, 4, 4),
    StakeRow("nap", 5, 10, 5),
)


def synthetic_session(deals: int, seed: int = 1) -> SessionExport:
    rng = random.Random(seed)
    start = datetime(2026, 12, 1, 19, 0)
    chips = dict.fromkeys(PLAYERS, 0)
    rows: list[DealRow] = []
    ledger: list[LedgerRow] = []
    for number in range(1, deals + 1):
        dealer = PLAYERS[number % len(PLAYERS)]
        bidder = rng.choice(PLAYERS)
        stake = rng.choice(STAKES)
        made = rng.random() < 0.6
        when = start + timedelta(minutes=2 * number)
        common = dict(
            number=number,
            dealer=dealer,
            bidder=bidder,
            bid=stake.bid,
            revoker=None,
            peeps=(),
            purchases=((rng.choice(PLAYERS), 2),) if rng.random() < 0.1 else (),
            pot_after=0,
            recorded_at=when,
        )
        if rng.random() < 0.02:
            rows.append(DealRow(revision=1, status="voided", outcome="made", changes={}, **common))
            continue
        revision = 1
        if rng.random() < 0.05:
            rows.append(
                DealRow(revision=1, status="replaced", outcome="failed", changes={}, **common)
            )
            revision = 2
        amount = stake.win if made else stake.lose
        changes = {p: (-amount if made else amount) for p in PLAYERS if p != bidder}
        changes[bidder] = -sum(changes.values())
        for p in PLAYERS:
            if p == bidder:
                continue
            payer, payee = (p, bidder) if made else (bidder, p)
            ledger.append(LedgerRow(number, revision, payer, payee, amount))
        for p, c in changes.items():
            chips[p] += c
        outcome = f"{'made' if made else 'failed'} ({stake.tricks} tricks)"
        rows.append(
            DealRow(revision=revision, status="live", outcome=outcome, changes=changes, **common)
        )
    return SessionExport(
        id=1,
        name="Benchmark night",
        variant="classic",
        currency="GBP",
        chip_value=Decimal("0.05"),
        created=start,
        closed=None,
        players=PLAYERS,
        chips=chips,
        pot=0,
        net={p: c * Decimal("0.05") for p, c in chips.items()},
        stakes=STAKES,
        settings={"dealer_sits_out": 6, "misere": True},
        deals=rows,
        ledger=ledger,
    )


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    deals = int(args[0]) if args else 50_000
    session = synthetic_session(deals)
    built_rss = _peak_rss_mib()
    calls: list[int] = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.xlsx"
        started = time.perf_counter()
        write_workbook([session], path, calls.append)
        elapsed = time.perf_counter() - started
        size = path.stat().st_size
        written_rss = _peak_rss_mib()
        floor_path = Path(folder) / "floor.xlsx"
        started = time.perf_counter()
        write_floor(session, floor_path)
        floor = time.perf_counter() - started
        traced = None
        if "--tracemalloc" in sys.argv:
            # A second write under tracemalloc, which slows Python several times over.
            tracemalloc.start()
            write_workbook([session], path)
            traced = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    print(f"deals:                  {len(session.deals):,} rows ({deals:,} deal numbers)")
    print(f"ledger rows:            {len(session.ledger):,}")
    print(f"progress calls:         {len(calls)}, adding up to {sum(calls):,}")
    print(f"wall time:              {elapsed:.1f} s")
    print(f"floor (openpyxl alone): {floor:.1f} s; the export takes {elapsed / floor:.2f}x that")
    print(f"peak RSS, input built:  {built_rss:.0f} MiB")
    print(f"peak RSS, after write:  {written_rss:.0f} MiB")
    if traced is not None:
        print(f"tracemalloc peak:       {traced / 2**20:.1f} MiB allocated during the write")
    print(f"file size:              {size / 2**20:.1f} MiB")


def write_floor(session: SessionExport, path: Path) -> None:
    """The same cells as the export's long sheets, written with nothing but openpyxl."""
    wb = Workbook(write_only=True)
    deals, ledger, balance = (wb.create_sheet(t) for t in ("Deals", "Ledger", "Balance"))
    value = session.chip_value
    for d in session.deals:
        row: list[object] = [
            session.id,
            d.number,
            d.revision,
            d.status,
            d.dealer,
            d.bidder,
            d.bid,
            d.outcome,
            d.revoker,
            None,
            None,
            d.pot_after,
            d.recorded_at,
            d.note,
        ]
        for p in session.players:
            change = d.changes.get(p)
            row += [change, None if change is None else change * value, change]
        deals.append(row)
        if d.status == "live":
            balance.append([session.id, d.number, *(d.changes.get(p) for p in session.players)])
    for t in session.ledger:
        ledger.append([session.id, t.deal, t.revision, t.payer, t.payee, t.chips, t.chips * value])
    wb.save(path)


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


if __name__ == "__main__":
    main()
