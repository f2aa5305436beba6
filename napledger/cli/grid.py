"""Tables drawn line by line, exactly as Rich draws them in the plain case, but cheaply.

Rich's `Table` measures and wraps every cell through its whole layout engine: fine for a
scoreboard once, a third of a deal's cost in `play`, and seconds for a history of
thousands of deals. Here a table whose every cell is one line that fits (the usual case)
is drawn straight from its text: the same column widths, box, title, padding, justifying
and styles, so the output is the very same, character for character and colour for
colour (tests/cli/test_grid.py compares the two). Anything else returns None, and the
caller draws it with Rich; `wrapped` draws a long history that does not fit, folding the
payments of a deal onto more lines.

A cell is Rich markup; a list of markup parts is a payments cell: the parts side by side,
three spaces apart, as `rich.columns.Columns` sets them, and its column takes the width
the others leave (as a `Columns` in a Rich table does).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import ceil
from typing import TYPE_CHECKING, NamedTuple

from rich import box as boxes
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment, Segments
from rich.style import Style
from rich.text import Text

if TYPE_CHECKING:
    from rich.table import Table as RichTable

Cell = str | list[str]
# Texts kept parsed and measured: enough for every distinct cell of a long history (its
# deal numbers alone run to thousands), little beside what such a history holds anyway.
CACHED = 1 << 16
PARTS_GAP = 3  # spaces between two payments, as `Columns(padding=(0, 3))` leaves


class Row(NamedTuple):
    cells: Sequence[Cell]
    end_section: bool = False  # a line under it, as Rich's `add_row(end_section=True)`


@lru_cache(maxsize=CACHED)
def markup(text: str) -> Text:
    """Rich markup parsed once: a history repeats the same names and amounts thousands of
    times. The Text is shared, so it is only read."""
    return Text.from_markup(text, emoji=False)


@lru_cache(maxsize=CACHED)
def _text_width(text: str) -> int:
    return markup(text).cell_len


def _width(cell: Cell) -> int:
    if isinstance(cell, list):
        return sum(map(_text_width, cell)) + PARTS_GAP * max(len(cell) - 1, 0)
    return _text_width(cell)


@lru_cache(maxsize=CACHED)
def _plain_line(text: str) -> bool:
    plain = markup(text).plain
    return "\n" not in plain and "\t" not in plain and plain == plain.strip()


def _one_line(cell: Cell) -> bool:
    return all(map(_plain_line, cell)) if isinstance(cell, list) else _plain_line(cell)


def ratio_distribute(total: int, ratios: Sequence[int]) -> list[int]:
    """`total` shared out in proportion to `ratios`, rounding as Rich does for a table
    widened to its minimum width."""
    left, weight, out = total, sum(ratios), []
    for ratio in ratios:
        share = ceil(ratio * left / weight) if weight > 0 else left
        out.append(share)
        weight -= ratio
        left -= share
    return out


class Grid:
    """A table like `rich.table.Table(title=..., min_width=...)` with the default box."""

    def __init__(
        self,
        title: str | None,
        headers: Sequence[str],
        justify: Sequence[str] | None = None,
        min_width: int | None = None,
        box: boxes.Box = boxes.HEAVY_HEAD,
    ) -> None:
        self.title = title
        self.headers = list(headers)
        self.justify = list(justify or ["left"] * len(headers))
        self.min_width = min_width
        self.box = box
        self.rows: list[Row] = []

    def add_row(self, *cells: Cell, end_section: bool = False) -> None:
        self.rows.append(Row(cells, end_section))

    def add_section(self) -> None:
        if self.rows:
            self.rows[-1] = self.rows[-1]._replace(end_section=True)

    # --- layout -----------------------------------------------------------------

    def widths(self, max_width: int, fold: bool = False) -> list[int] | None:
        """Each column's width with its padding, as Rich would choose them; None when Rich
        would have to wrap or cut a cell (then only Rich draws it as Rich does).

        With `fold`, a payments column narrower than its longest row is still laid out,
        its payments folded onto more lines (`draw_folded`), as long as the widest single
        payment fits and every other cell fits on its line."""
        count = len(self.headers)
        rows = [r.cells for r in self.rows]
        measured = self._measure()
        if measured is None:
            return None
        natural = list(measured)
        extra = count + 1  # the verticals
        room = max_width - extra
        fill = [i for i in range(count) if any(isinstance(r[i], list) for r in rows)]
        if len(fill) > 1:
            return None
        if fill:
            # A payments column takes what the others leave, when that is no narrower
            # than any of them (else Rich narrows them too) and each row's payments fit.
            (at,) = fill
            rest = room - (sum(natural) - natural[at])
            if fold:
                widest = max(
                    [markup(p).cell_len for r in rows if isinstance(r[at], list) for p in r[at]]
                    + [_width(r[at]) for r in rows if not isinstance(r[at], list)]
                )
                if rest < widest + 2:
                    return None
            elif rest < max(natural[i] for i in range(count) if i != at) or rest < natural[at]:
                return None
            natural[at] = rest
        elif sum(natural) > room:
            return None
        if self.min_width is not None and sum(natural) < self.min_width - extra:
            wanted = min(self.min_width - extra, room)
            natural = [
                w + p
                for w, p in zip(
                    natural, ratio_distribute(wanted - sum(natural), natural), strict=True
                )
            ]
        if self.title is not None:
            title = markup(self.title).plain
            if not _one_line(self.title) or cell_len(title) > sum(natural) + extra:
                return None
        return natural

    def _measure(self) -> list[int] | None:
        """Each column's natural width with its padding; None if a cell is not one line."""
        if getattr(self, "_measured", (-1, None))[0] != len(self.rows):
            self._measured = (len(self.rows), self._measure_now())
        return self._measured[1]

    def _measure_now(self) -> list[int] | None:
        count = len(self.headers)
        rows = [r.cells for r in self.rows]
        if any(len(cells) != count for cells in rows):
            return None
        if not all(_one_line(c) for c in (*self.headers, *(c for r in rows for c in r))):
            return None
        return [
            2 + max([markup(self.headers[i]).cell_len, *(_width(r[i]) for r in rows)])
            for i in range(count)
        ]

    # --- drawing ----------------------------------------------------------------

    def draw(self, console: Console) -> bool:
        """Print the table as Rich would; False (nothing printed) where only Rich can."""
        drawn = self.drawn(console)
        if drawn is None:
            return False
        console.print(drawn)
        return True

    def drawn(self, console: Console, fold: bool = False) -> Segments | None:
        """The table as Rich would print it; None where only Rich can draw it. With
        `fold`, its payments folded where they do not fit on one line: three spaces
        apart, as many on a line as fit (Rich's `Columns` would line them up in columns
        as well, at a cost that grows with every row)."""
        widths = self.widths(console.options.max_width, fold=fold)
        return None if widths is None else Segments(self.segments(console, widths))

    def renderable(self, console: Console, long: int | None = None) -> Segments | RichTable:
        """What prints the table: drawn here where that is exact, else Rich's own table;
        past `long` rows, with folded payments rather than by Rich (seconds for thousands)."""
        drawn = self.drawn(console)
        if drawn is None and long is not None and len(self.rows) > long:
            drawn = self.drawn(console, fold=True)
        return self.rich() if drawn is None else drawn

    def print(self, console: Console, long: int | None = None) -> None:
        # Every line drawn here is exactly the table's width: nothing for Rich to crop.
        console.print(self.renderable(console, long), crop=False)

    def rich(self) -> RichTable:
        """The same table as Rich's own (loaded only when a table must be drawn by Rich)."""
        from rich.columns import Columns
        from rich.table import Table as RichTable

        table = RichTable(title=self.title, min_width=self.min_width, box=self.box)
        for header, justify in zip(self.headers, self.justify, strict=True):
            table.add_column(header, justify=justify)  # type: ignore[arg-type]
        for row in self.rows:
            table.add_row(
                *(
                    # Each payment wraps as a whole: a name is never parted from its amount.
                    Columns([markup(p).copy() for p in cell], padding=(0, PARTS_GAP))
                    if isinstance(cell, list)
                    else cell
                    for cell in row.cells
                ),
                end_section=row.end_section,
            )
        return table

    def segments(self, console: Console, widths: list[int]) -> list[Segment]:
        box = self.box.substitute(console.options, safe=console.safe_box)
        line = Segment.line()
        out: list[Segment] = []
        if self.title is not None:
            out += title_segments(console, self.title, sum(widths) + len(widths) + 1)
        out += [Segment(box.get_top(widths)), line]
        header = console.get_style("table.header")
        out += self._line(
            console, self.headers, widths, header, box.head_left, box.head_vertical, box.head_right
        )
        out += [Segment(box.get_row(widths, "head")), line]
        separator = Segment(box.get_row(widths, "row"))
        null = Style.null()
        mid = (box.mid_left, box.mid_vertical, box.mid_right)
        foot = (box.foot_left, box.foot_vertical, box.foot_right)
        for index, row in enumerate(self.rows):
            last = index == len(self.rows) - 1
            edges = foot if last else mid
            if not any(isinstance(cell, list) for cell in row.cells):
                out += self._line(console, row.cells, widths, null, *edges)
            else:
                folded = [fold(c, width - 2) for c, width in zip(row.cells, widths, strict=True)]
                for n in range(max(len(lines) for lines in folded)):
                    cells = [lines[n] if n < len(lines) else "" for lines in folded]
                    out += self._line(console, cells, widths, null, *edges)
            if row.end_section and not last:
                out += [separator, line]
        out += [Segment(box.get_bottom(widths)), line]
        return out

    def _line(
        self,
        console: Console,
        cells: Sequence[Cell],
        widths: Sequence[int],
        style: Style,
        left: str,
        vertical: str,
        right: str,
    ) -> list[Segment]:
        """One line of the table, its neighbouring unstyled pieces as one segment (a
        history of thousands of lines prints faster with fewer)."""
        out: list[Segment] = []
        plain = left
        for i, (cell, width) in enumerate(zip(cells, widths, strict=True)):
            key = tuple(cell) if isinstance(cell, list) else cell
            head, styled, tail = drawn_cell(console, key, width, self.justify[i], style)
            plain = f"{plain}{vertical}{head}" if i else plain + head
            if styled:
                out.append(Segment(plain))
                out += styled
                plain = tail
        out.append(Segment(f"{plain}{right}\n"))
        return out


class Drawn(NamedTuple):
    """A cell drawn: its unstyled start, the segments from its first styled one to its
    last, and its unstyled end (a cell with no style is all start)."""

    head: str
    styled: tuple[Segment, ...]
    tail: str


@lru_cache(maxsize=CACHED)
def drawn_cell(
    console: Console, cell: str | tuple[str, ...], width: int, justify: str, style: Style
) -> Drawn:
    """A cell drawn, kept: a history repeats its names and amounts thousands of times,
    and `play` draws the same names, headers and small sums deal after deal."""
    parts = list(cell) if isinstance(cell, tuple) else cell
    segments = plain_joined(cell_segments(console, parts, width, justify, style))
    plain = [not (s.style or s.control) for s in segments]
    if all(plain):
        return Drawn("".join(s.text for s in segments), (), "")
    first = plain.index(False)
    end = len(segments) - plain[::-1].index(False)
    head = "".join(s.text for s in segments[:first])
    tail = "".join(s.text for s in segments[end:])
    return Drawn(head, tuple(segments[first:end]), tail)


def plain_joined(segments: list[Segment]) -> list[Segment]:
    """Neighbouring unstyled segments as one: they print the same bytes either way, and
    a history of thousands of lines prints faster with fewer."""
    out: list[Segment] = []
    plain: list[str] = []
    for segment in segments:
        if segment.style or segment.control:
            if plain:
                out.append(Segment("".join(plain)))
                plain = []
            out.append(segment)
        else:
            plain.append(segment.text)
    if plain:
        out.append(Segment("".join(plain)))
    return out


def fold(cell: Cell, width: int) -> list[Cell]:
    """A cell's lines: a payments cell's parts packed onto lines `width` wide, in order."""
    if not isinstance(cell, list) or _width(cell) <= width:
        return [cell]
    lines: list[Cell] = [[]]
    used = 0
    for part in cell:
        size = markup(part).cell_len
        line = lines[-1]
        assert isinstance(line, list)
        if line and used + PARTS_GAP + size > width:
            lines.append([part])
            used = size
        else:
            used += (PARTS_GAP if line else 0) + size
            line.append(part)
    return lines


def cell_segments(
    console: Console, cell: Cell, width: int, justify: str, style: Style
) -> list[Segment]:
    """One cell padded by a space each side and justified in `width`, styled as Rich's
    table styles it (the row's style under the text's own)."""
    inner = width - 2
    if isinstance(cell, list):
        # A row of payments: Rich's Columns sets them as a grid three spaces apart.
        text = Text()
        for n, part in enumerate(cell):
            if n:
                text.append(" " * PARTS_GAP)
            text.append_text(markup(part))
        justify = "left"
    else:
        text = markup(cell).copy()
    pad = inner - text.cell_len
    if justify == "right":
        text.pad_left(pad)
    elif justify == "center":
        text.pad_left(pad // 2)
        text.pad_right(pad - pad // 2)
    else:
        text.pad_right(pad)
    return [
        Segment(" ", style),
        *(Segment(s.text, style + s.style if s.style else style) for s in text.render(console)),
        Segment(" ", style),
    ]


def title_segments(console: Console, title: str, width: int) -> list[Segment]:
    """The title centred over the table, in the table title's style, as Rich sets it."""
    text = console.render_str(title, style="table.title", highlight=False)
    pad = width - text.cell_len
    text.pad_left(pad // 2)
    text.pad_right(pad - pad // 2)
    # Rich renders it joined into lines, which turns its own style into a span.
    return [*Text("\n").join([text]).render(console), Segment.line()]
