"""The running balance of each player through the evening, drawn by the server as SVG.

Pure geometry: a player's balances after each deal become a polyline in a fixed viewBox
that the page scales to its width, so a phone and a TV get the same picture, no script.
A player not at the table for some deals leaves a gap there (the line is drawn in pieces),
and the deal numbers run along the bottom.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 600, 260, 24
BOTTOM = 44  # room under the lines for the deal numbers
TICKS = 6  # deal numbers along the bottom, at most
# Colour-blind-safe (Okabe–Ito); each line also has its own dash pattern and its name
# in the legend, so colour is never the only clue.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4")


@dataclass(frozen=True)
class Line:
    name: str
    pieces: tuple[str, ...]  # polylines' points: more than one where the player was away
    colour: str
    dash: str
    last: int

    @property
    def points(self) -> str:
        return " ".join(self.pieces)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    zero_y: float
    top: int  # the highest balance shown
    bottom: int  # the lowest
    lines: tuple[Line, ...]
    ticks: tuple[tuple[float, str], ...] = ()  # (x, "12") under the deal it names


def running_chart(
    series: Sequence[tuple[str, Sequence[int | None]]], labels: Sequence[str] = ()
) -> Chart | None:
    """None until there is a deal to draw. A value of None is a step the account was not
    at the table; `labels` names each step ("12", "close") for the bottom."""
    steps = max((len(values) for _, values in series), default=0)
    if steps == 0:
        return None
    shown = [v for _, values in series for v in values if v is not None]
    top = max(0, *shown)
    bottom = min(0, *shown)
    span = (top - bottom) or 1

    def x(i: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * i / steps

    def y(v: int) -> float:
        return PAD + (HEIGHT - PAD - BOTTOM) * (top - v) / span

    lines = []
    for k, (name, values) in enumerate(series):
        # A line from the start of the evening starts from nothing before the first deal.
        start: list[int | None] = [0 if values and values[0] is not None else None]
        pieces: list[str] = []
        piece: list[str] = []
        for i, v in enumerate((*start, *values)):
            if v is None:
                if piece:
                    pieces.append(" ".join(piece))
                piece = []
            else:
                piece.append(f"{x(i):.1f},{y(v):.1f}")
        if piece:
            pieces.append(" ".join(piece))
        last = next((v for v in reversed(values) if v is not None), 0)
        lines.append(
            Line(name, tuple(pieces), COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)], last)
        )
    ticks = tuple((round(x(i + 1), 1), labels[i]) for i in tick_steps(len(labels), TICKS))
    return Chart(WIDTH, HEIGHT, round(y(0), 1), top, bottom, tuple(lines), ticks)


def tick_steps(count: int, most: int) -> list[int]:
    """Up to `most` steps evenly spread, the first and the last among them."""
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})
