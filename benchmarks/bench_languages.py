"""`napledger hand` in Russian against the same in English: at most 1.05x (issue #35).

Run from the repository root: ``PYTHONPATH=. python benchmarks/bench_languages.py [--runs N]``.

A Russian table pays for its catalog (read once a process), Click's and Typer's own words
bound through gettext (napledger/locale_frame.py) and its numbers written the Russian way;
nothing else may differ. Each round runs both, interleaved, in a fresh interpreter, so a
busy machine slows both alike; the figures are medians of wall and CPU (user + system)
seconds, and the ratio is Russian over English.
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
        for _ in range(runs + 1):  # the first round writes the bytecode cache: dropped
            for name, argv in commands.items():
                times[name].append(timed(argv, env(db)))
    wall = {n: statistics.median(w for w, _ in t[1:]) for n, t in times.items()}
    cpu = {n: statistics.median(c for _, c in t[1:]) for n, t in times.items()}
    for name in commands:
        print(f"napledger hand, {name}: {wall[name] * 1000:6.1f} ms wall, "
              f"{cpu[name] * 1000:6.1f} ms CPU (median of {runs})")  # fmt: skip
    for what, figures in (("wall", wall), ("CPU", cpu)):
        ratio = figures["ru"] / figures["en"]
        verdict = "ok" if ratio <= TARGET else "OVER"
        print(f"Russian / English, {what}: {ratio:.3f}x (target <= {TARGET}x) {verdict}")


if __name__ == "__main__":
    main()
