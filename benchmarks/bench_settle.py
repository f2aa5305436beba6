"""How long ``settle`` takes as the table grows.

Run from the repository root: ``PYTHONPATH=. python benchmarks/bench_settle.py``.

Two shapes of input, both without exact opposites (those are cancelled before the
exponential part, which would make the timing flatter than the worst case):

* scattered: large random balances, so almost no subgroup sums to zero and the plan
  is one big group -- the case the brief calls worst;
* clustered: small balances 1, 2 and -3, so very many subgroups sum to zero and the
  search needs its most levels, which is the slowest case for this implementation.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from napledger.core.settle import settle

SIZES = (8, 12, 16, 20)
REPEATS = 5
BUDGET = 1.0  # seconds allowed for 20 parties


def scattered(n: int, rng: random.Random) -> list[int]:
    values = [rng.randint(1, 10**6) * rng.choice((1, -1)) for _ in range(n - 1)]
    return [*values, -sum(values)]


def clustered(n: int, rng: random.Random) -> list[int]:
    while True:
        values = [rng.choice((1, 2, -3)) for _ in range(n - 1)]
        last = -sum(values)
        # The closing balance must not cancel another one exactly, nor be zero.
        if last and -last not in values:
            return [*values, last]


def slowest(n: int, shape: Callable[[int, random.Random], list[int]]) -> float:
    rng = random.Random(n)
    worst = 0.0
    for _ in range(REPEATS):
        balances = {f"p{i:02d}": value for i, value in enumerate(shape(n, rng))}
        start = time.perf_counter()
        settle(balances)
        worst = max(worst, time.perf_counter() - start)
    return worst


def main() -> None:
    print(f"slowest of {REPEATS} runs, seconds")
    print(f"{'parties':>7} {'scattered':>10} {'clustered':>10}")
    at_twenty = 0.0
    for n in SIZES:
        times = [slowest(n, shape) for shape in (scattered, clustered)]
        print(f"{n:>7} {times[0]:>10.4f} {times[1]:>10.4f}")
        if n == 20:
            at_twenty = max(times)
    verdict = "under" if at_twenty < BUDGET else "NOT under"
    print(f"20 parties: {at_twenty:.4f} s, {verdict} the {BUDGET:g} s budget")


if __name__ == "__main__":
    main()
