"""The running balance of each player through the evening, drawn by the server as SVG.

Pure geometry: a player's balances after each deal become a polyline in a fixed viewBox
that the page scales to its width, so a phone and a TV get the same picture, no script.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 600, 240, 24
# Colour-blind-safe (Okabe–Ito); each line also has its own dash pattern and its name
# in the legend, so colour is never the only clue.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4")


@dataclass(frozen=True)
class Line:
    name: str
    points: str
    colour: str
    dash: str
    last: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    zero_y: float
    top: int  # the highest balance shown
    bottom: int  # the lowest
    lines: tuple[Line, ...]


def running_chart(series: Sequence[tuple[str, Sequence[int]]]) -> Chart | None:
    """None until there is a deal to draw."""
    steps = max((len(values) for _, values in series), default=0)
    if steps == 0:
        return None
    top = max(0, *(v for _, values in series for v in values))
    bottom = min(0, *(v for _, values in series for v in values))
    span = (top - bottom) or 1

    def x(i: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * i / steps

    def y(v: int) -> float:
        return PAD + (HEIGHT - 2 * PAD) * (top - v) / span

    lines = []
    for k, (name, values) in enumerate(series):
        # Every line starts from nothing before the first deal.
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate((0, *values)))
        lines.append(
            Line(
                name,
                points,
                COLOURS[k % len(COLOURS)],
                DASHES[k % len(DASHES)],
                values[-1] if values else 0,
            )
        )
    return Chart(WIDTH, HEIGHT, round(y(0), 1), top, bottom, tuple(lines))
