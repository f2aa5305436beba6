"""How long ``stats`` takes over a club's history: 1,000 sessions of 60 deals.

Run from the repository root: ``PYTHONPATH=. python benchmarks/bench_stats.py [--db URL]``.

The history is made the way the book makes it: sessions through ``Book.create``, deals
scored by the rules' own ``replay`` and written as the book writes them (records,
changes, pot after each deal), only in bulk. Players come from a club of 14, across all
three presets and two currencies, with pools, peeps, purchases, revokes, passed-out
deals, a few voided deals and closes. Then it times ``stats`` in-process and as a
whole command (the figure the budget is about), JSON and tables, each against
``python -c "import sqlmodel"`` measured in the same run: at most 3x (issue #23). Whole
processes run with their bytecode cached, as an installed napledger has it.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from sqlalchemy import insert, update

from napledger.core.ledger import changes_from
from napledger.core.rules import Deal, Rules, load_preset
from napledger.core.rules.load import with_overrides
from napledger.core.rules.scoring import replay
from napledger.service.api import Database
from napledger.store.book import SessionStore
from napledger.store.codec import deal_to_json
from napledger.store.models import deals as deals_table
from napledger.store.models import entries, sessions

SESSIONS = 1_000
DEALS = 60
BUDGET = 2.0  # seconds for the whole `stats` command
CLUB = [
    "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max", "Ned",
]  # fmt: skip


def table_rules(rng: random.Random) -> tuple[Rules, str, Decimal]:
    kind = rng.random()
    if kind < 0.5:
        # Cards bought at any table, as the history this builds was written before the
        # house rules limited buying to four dealt in.
        rules = with_overrides(load_preset("classic"), ["purchase_max_dealt=off"])
        if rng.random() < 0.4:
            rules = with_overrides(rules, ["pool=on"])
        return rules, "GBP", Decimal("0.05")
    if kind < 0.8:
        return load_preset("russian"), "RUB", Decimal(5)
    return load_preset("seven-card"), "GBP", Decimal("0.10")


def one_deal(rules: Rules, seated: tuple[str, ...], dealer: str, rng: random.Random) -> Deal:
    dealt = rules.dealt_in(seated, dealer)
    # Only what the variant allows: no peeping where it has no peep fee; buying by
    # anyone, by the bidder alone (at most `most_bought` cards), or by nobody.
    peeping = rules.why_absent("peep_fee") is None
    peeps = tuple(p for p in dealt if peeping and rng.random() < 0.03)
    buyers = {"anyone": dealt, "nobody": ()}.get(rules.buying, dealt)
    buys = tuple(
        (p, rng.randint(1, min(3, rules.most_bought))) for p in buyers if rng.random() < 0.05
    )
    if rng.random() < 0.12:
        return Deal(
            seated=seated, dealer=dealer, peeps=peeps, buys=buys if rules.buying == "anyone" else ()
        )
    # Low bids are common, five-trick bids rare, as at a real table.
    bids = rules.enabled_bids
    weights = [1 / (1 + b.tricks) ** 1.5 if not b.misere else 0.15 for b in bids]
    bid = rng.choices(bids, weights)[0]
    bidder = rng.choice(dealt)
    if rules.buying == "bidder":
        buys = tuple((p, c) for p, c in buys if p == bidder)
    base = Deal(seated=seated, dealer=dealer, bid=bid.name, bidder=bidder, peeps=peeps, buys=buys)
    if rng.random() < 0.02:
        return replace(base, revoker=rng.choice(dealt))
    chance = 0.6 if bid.tricks < 5 else 0.4
    if bid.misere:
        tricks = 0 if rng.random() < chance else rng.randint(1, 3)
    elif rng.random() < chance:
        tricks = rng.randint(bid.tricks, rules.hand_size)
    else:
        tricks = rng.randint(0, bid.tricks - 1)
    return replace(base, tricks=tricks)


def build(url: str, seed: int = 6) -> int:
    rng = random.Random(seed)
    start = datetime(2024, 1, 5, 19, 30, tzinfo=UTC)
    deal_id = 0
    with Database(url) as database, database.write() as tx:
        b = tx.book
        for n in range(SESSIONS):
            rules, currency, chip = table_rules(rng)
            size = rng.randint(max(rules.min_players, 3), min(rules.max_players, 7))
            players = rng.sample(CLUB, size)
            row = b.create(f"night-{n + 1}", rules, players, chip, currency, None, None)
            row.created_at = start + timedelta(days=n // 3, hours=n % 3)
            b.db.execute(
                update(sessions).where(sessions.c.id == row.id).values(created_at=row.created_at)
            )
            seating = tuple(players)
            dealer = seating[0]
            deals = []
            for _ in range(DEALS):
                deals.append(one_deal(rules, seating, dealer, rng))
                dealer = seating[(seating.index(dealer) + 1) % len(seating)]
            voided = {i for i in range(DEALS) if rng.random() < 0.03}
            live = [d for i, d in enumerate(deals) if i not in voided]
            scored = iter(replay(rules, live))
            deal_rows, entry_rows, pot = [], [], 0
            for number, deal in enumerate(deals, 1):
                deal_id += 1
                status = "voided" if number - 1 in voided else "live"
                if status == "live":
                    s = next(scored)
                    pot = s.pot_after
                    entry_rows += [
                        {"session_id": row.id, "deal_id": deal_id, "account": a, "chips": c}
                        for a, c in changes_from(s.payments).items()
                        if c
                    ]
                deal_rows.append(
                    {
                        "id": deal_id,
                        "session_id": row.id,
                        "number": number,
                        "revision": 1,
                        "status": status,
                        "record_json": deal_to_json(deal),
                        "pot_after": pot if status == "live" else 0,
                        "recorded_at": row.created_at + timedelta(minutes=2 * number),
                    }
                )
            b.db.execute(insert(deals_table), deal_rows)
            if entry_rows:
                b.db.execute(insert(entries), entry_rows)
            if n < SESSIONS - 1:  # the last one is still being played
                # A store of its own: the book's still keeps the state of before the bulk insert.
                SessionStore(b, row).close("split")
    return deal_id


def sanity(url: str) -> None:
    """The history is realistic enough: bids of every height were made and failed."""
    with Database(url) as database, database.read() as tx:
        tally = tx.stats()
        in_pots = sum(board.pot for board in tx.sessions())  # the open session's pot
    rows = tally.ranked()
    assert sum(s.chips for s in rows) + in_pots == 0, "every session sums to zero"
    assert sum(s.naps_made for s in rows) > 100 and sum(s.treasure for s in rows) > 0
    made = sum(s.bids.made for s in rows) / sum(s.bids.bids for s in rows)
    assert 0.4 < made < 0.7, made


def timed(fn: Callable[[], object], repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - began)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a database URL to build in (default: a temp SQLite file)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="napledger-bench-")
    url = args.db or f"sqlite:///{Path(folder) / 'club.db'}"

    began = time.perf_counter()
    total = build(url)
    print(
        f"built {SESSIONS} sessions x {DEALS} deals ({total} deals) in {time.perf_counter() - began:.1f}s"
    )
    sanity(url)

    def in_process() -> None:
        with Database(url) as database, database.read() as tx:
            tx.stats().ranked()

    print(f"stats in-process (query + tally):  {timed(in_process):.3f}s")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"NAPLEDGER_DB": url, "COLUMNS": "120", "PYTHONPYCACHEPREFIX": f"{folder}/pycache"}
    floor_command = [sys.executable, "-c", "import sqlmodel"]

    def floor() -> None:
        subprocess.run(floor_command, env=env, check=True, capture_output=True)

    floor()  # the bytecode of both written first
    stats = [sys.executable, "-m", "napledger", "stats"]
    subprocess.run(stats, env=env, check=True, capture_output=True)
    floor_seconds = timed(floor)
    print(f"python -c 'import sqlmodel'                    {floor_seconds:.3f}s")
    for options in (["--json"], [], ["--player", "ann", "--since", "2024-06-01"]):
        command = [sys.executable, "-m", "napledger", "stats", *options]

        def whole(command: list[str] = command) -> None:
            subprocess.run(command, env=env, check=True, capture_output=True)

        seconds = timed(whole)
        verdict = "ok" if seconds < BUDGET else f"OVER the {BUDGET:.0f}s budget"
        ratio = seconds / floor_seconds
        target = "PASS" if ratio <= 3 else "FAIL"
        print(
            f"napledger stats {' '.join(options):<36} {seconds:.3f}s  ({verdict}; "
            f"{ratio:.1f}x import sqlmodel, at most 3x: {target})"
        )


if __name__ == "__main__":
    main()
