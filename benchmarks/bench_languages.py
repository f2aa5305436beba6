"""`napledger hand` in Russian against the same in English: at most 1.05x (issue #35).

Run from the repository root: ``PYTHONPATH=. python benchmarks/bench_languages.py [--runs N]``.

A Russian table pays for its catalog (read once a process), Click's and Typer's own words
bound through gettext (napledger/locale_frame.py) and its numbers written the Russian way;
nothing else may differ. Each round runs both in fresh interpreters, one after the other,
the order swapped every round: on a busy machine the second of a pair was slower in wall
time (1.05x measured with Russian always second, 0.98x with it first, CPU 1.00x both
ways). The figures are medians of wall and CPU (user + system) seconds, and the ratio is
the median of the rounds' Russian over English, so a machine's drift falls on both.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.bench_cli import PLAYERS, env, timed

TARGET = 1.05


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=41)
    runs = parser.parse_args().runs
    nap = [sys.executable, "-m", "napledger"]
    hand = ["hand", "3", "--by", "Ben", "--made"]
    commands = {"en": [*nap, "--lang", "en", *hand], "ru": [*nap, "--lang", "ru", *hand]}
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        timed([*nap, "new", "bench", "--players", ",".join(PLAYERS)], env(db))
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for round_ in range(runs + 1):  # the first round writes the bytecode cache: dropped
            for name in ("en", "ru") if round_ % 2 else ("ru", "en"):
                times[name].append(timed(commands[name], env(db)))
    wall = {n: statistics.median(w for w, _ in t[1:]) for n, t in times.items()}
    cpu = {n: statistics.median(c for _, c in t[1:]) for n, t in times.items()}
    for name in commands:
        print(f"napledger hand, {name}: {wall[name] * 1000:6.1f} ms wall, "
              f"{cpu[name] * 1000:6.1f} ms CPU (median of {runs})")  # fmt: skip
    for what, at in (("wall", 0), ("CPU", 1)):
        pairs = zip(times["ru"][1:], times["en"][1:], strict=True)
        ratio = statistics.median(ru[at] / en[at] for ru, en in pairs)
        verdict = "ok" if ratio <= TARGET else "OVER"
        print(f"Russian / English, {what}: {ratio:.3f}x (target <= {TARGET}x) {verdict}")


if __name__ == "__main__":
    main()
