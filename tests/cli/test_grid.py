"""The cheap table drawer draws exactly what Rich's own table draws, colours included.

napledger/cli/grid.py draws a scoreboard or a history without Rich's layout engine when
every cell is one line that fits; whatever it draws must be the very bytes Rich's
`Table` prints, on a terminal (styles as escape codes) and in a pipe (plain text).
"""

from __future__ import annotations

import io
import random

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segments

from napledger.cli.grid import Grid

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Bartholomew", "Zoë", "李雷", "Fay (left)"]


def consoles(width: int) -> list[Console]:
    terminal = dict(force_terminal=True, color_system="truecolor")
    return [
        Console(file=io.StringIO(), width=width, highlight=False, emoji=False, **terminal),  # type: ignore[arg-type]
        Console(file=io.StringIO(), width=width, highlight=False, emoji=False, no_color=True),
    ]


def same_as_rich(grid: Grid, width: int) -> bool | None:
    """None where the grid leaves it to Rich; else whether both printed the same."""
    drawn = None
    for mine, rich in zip(consoles(width), consoles(width), strict=True):
        if not grid.draw(mine):
            return None
        rich.print(grid.rich())
        drawn = mine.file.getvalue() == rich.file.getvalue()  # type: ignore[attr-defined]
        if not drawn:
            return False
    return drawn


def chips(rng: random.Random) -> str:
    n = rng.randint(-60, 60)
    return f"[green]+{n}[/]" if n > 0 else f"[red]{n}[/]" if n < 0 else "0"


@pytest.mark.parametrize("seed", range(4))
def test_scoreboards_are_drawn_as_rich_draws_them(seed):
    rng = random.Random(seed)
    drawn = 0
    for _ in range(60):
        title = rng.choice(
            ["f · English Nap · 1 deal", "x", "a long session name · Seven-card Nap · 12 deals"]
        )
        grid = Grid(
            title, ["player", "chips", "money GBP"], ["left", "right", "right"], cell_len(title) + 4
        )
        for _ in range(rng.randint(0, 7)):
            amount = chips(rng)
            grid.add_row(rng.choice(NAMES), amount, amount.replace("0", "0.00"))
        if rng.random() < 0.3:
            grid.add_row("[italic]pot[/]", "3", "0.15")
        same = same_as_rich(grid, rng.choice([20, 40, 80, 120]))
        assert same is not False
        drawn += same is True
    assert drawn > 30  # the cheap way is the usual one


@pytest.mark.parametrize("seed", range(4))
def test_histories_are_drawn_as_rich_draws_them(seed):
    rng = random.Random(seed)
    drawn = 0
    for _ in range(40):
        grid = Grid("friday: deals", ["#", "dealer", "bid", "outcome", "payments", "pot"])
        between = False
        for number in range(1, rng.randint(2, 9)):
            kind = rng.random()
            if kind < 0.15:  # a join, leave or close: a line above and below
                if grid.rows and not between:
                    grid.add_section()
                grid.add_row(
                    "", "", "", "[italic]Fay sits down in seat 6[/]", "", "", end_section=True
                )
                between = True
                continue
            if kind < 0.3:
                grid.add_row(
                    f"[dim]{number}[/]", "[dim]Ann[/]", "[dim]Ann nap[/]", "[dim]voided[/]", "", ""
                )
            else:
                paid = [f"{rng.choice(NAMES)} {chips(rng)}" for _ in range(rng.randint(0, 6))]
                outcome = rng.choice(["made (5 tricks)", "failed", "made; Ben peeped — a note"])
                grid.add_row(str(number), rng.choice(NAMES), "Ann nap", outcome, paid, str(number))
            between = False
        same = same_as_rich(grid, rng.choice([50, 80, 120, 160]))
        assert same is not False
        drawn += same is True
    assert drawn > 10


def test_a_long_history_too_wide_for_the_terminal_folds_its_payments_whole():
    grid = Grid("friday: deals", ["#", "dealer", "bid", "outcome", "payments", "pot"])
    paid = [f"{name} [green]+{n}[/]" for n, name in enumerate(NAMES[:6], 10)]
    for number in range(1, 301):
        grid.add_row(str(number), "Ann", "Ann nap", "made (5 tricks)", paid, "0")
    console = Console(file=io.StringIO(), width=70, no_color=True, highlight=False)
    assert not grid.draw(console)  # Rich would fold them: not the exact case
    folded = grid.drawn(console, fold=True)
    assert folded is not None
    assert isinstance(grid.renderable(console, long=200), Segments)  # not Rich's, past 200 rows
    console.print(folded)
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert all(cell_len(line) == 70 for line in lines[1:])
    payments = " ".join(line.split("│")[5] for line in lines if line.startswith("│"))
    for part in ("Ann +10", "Ben +11", "Cat +12", "Dan +13", "Eve +14", "Bartholomew +15"):
        assert payments.count(part) == 300  # never parted from its amount
    numbers = [line.split("│")[1].strip() for line in lines if line.startswith("│")]
    assert [n for n in numbers if n] == [str(n) for n in range(1, 301)]
