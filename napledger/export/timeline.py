"""The long sheets, streamed in one pass over each session's timeline.

Deals, Ledger and Balance are written side by side (openpyxl keeps each
write-only sheet in its own temporary file), so memory stays flat however long
the history, and ``progress`` moves with the real work: a deal's ledger rows
are written just after the deal.

Deals lays out the timeline's rows (napledger.core.read.timeline), as `hands` and the
page list them: the pot carried in, every version of every deal, each join and leave,
each close, a close taken back by `reopen` too, with the running totals the read model
keeps, so the last running total of every player is the Summary's. A row that does not
count (a voided or replaced deal, a reopened close) is shown greyed with what it had
paid in brackets, as text: no column a person would add up counts it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from openpyxl.utils import get_column_letter

from napledger.core.ledger import account_name
from napledger.core.numbers import signed
from napledger.core.read.columns import header_words, player_chips, player_columns
from napledger.core.read.report import SessionReport
from napledger.core.read.said import CLOSE, pot_row_label
from napledger.core.read.settlement import evening
from napledger.core.read.timeline import CLOSING, DEAL, PotFlow, Row
from napledger.core.rules.scoring import made_said
from napledger.core.words import N_, _, pgettext
from napledger.export.cells import CHANGE, CHIPS, DATETIME, DealNumber, money_format, money_label
from napledger.export.sheet import MONEY, SIGNED, Column, Sheet, header_room, width_of

PROGRESS_EVERY = 500  # deals between two progress calls
_NAME_CAP = 10  # characters of a name column on the Deals sheet: a longer name is cut
_SESSION_CAP = 16
_PLAYER_CAP = 8  # characters of a player's number columns: a longer name wraps in the header

# Sessions are named as the reader knows them (their ids appear nowhere else).
DEAL_COLUMNS = (
    Column(N_("Session")),
    Column(N_("Deal"), numeric=True),
    Column(N_("Status"), indent=True),  # clear of the deal number to its left
    Column(N_("Dealer")),
    Column(N_("Bidder")),
    Column(N_("Bid")),
    Column(N_("Outcome")),  # names the revoker too ("revoke by Eve")
    Column(N_("Peeps, buys")),
    Column(N_("Pot"), CHIPS),  # chips in the pot after the deal
    Column(N_("Note"), indent=True),  # clear of the pot to its left
)
# After the players' columns, and left out of the printout: for sorting and computing.
DEAL_TAIL_COLUMNS = (
    Column(N_("Revision"), numeric=True),  # 2 and on for a correction
    Column(N_("Recorded at"), DATETIME),
)
# Deals prints the deal columns on every page, each page's other columns being whole players.
DEAL_TITLE_COLUMNS = 2  # Session and Deal
LEDGER_COLUMNS = (
    Column(N_("Session")),
    Column(N_("Deal"), numeric=True),
    Column(N_("Revision"), numeric=True),
    Column(N_("Payer"), indent=True),
    Column(N_("Payee")),
    Column(N_("Chips"), CHIPS),
    Column(N_("Money"), MONEY),
)
BALANCE_COLUMNS = (Column(N_("Session")), Column(N_("Deal"), numeric=True))
POT_SERIES = N_("Pot")  # the pot's line on the chart


@dataclass
class EveningSeries:
    """Where one currency's evening lines sit on the Balance sheet, for its chart."""

    currency: str
    money: str  # the number format of its money
    first_row: int = 0
    last_row: int = 0
    columns: dict[str, int] = field(default_factory=dict)  # player (or the pot) -> column

    @property
    def points(self) -> int:
        return self.last_row - self.first_row + 1


@dataclass
class Written:
    """What the long sheets added up, per session in order, for the Summary."""

    live_deals: list[int] = field(default_factory=list)
    pots: list[PotFlow] = field(default_factory=list)
    # Each player's last running total on Deals, per session: what Summary must show.
    last_totals: list[dict[str, int]] = field(default_factory=list)
    evenings: list[EveningSeries] = field(default_factory=list)


class _Progress:
    def __init__(self, callback: Callable[[int], None] | None) -> None:
        self._callback = callback
        self._pending = 0

    def deal_written(self) -> None:
        self._pending += 1
        if self._pending >= PROGRESS_EVERY:
            self.flush()

    def flush(self) -> None:
        if self._callback is not None and self._pending:
            self._callback(self._pending)
        self._pending = 0


def roster(sessions: Sequence[SessionReport]) -> list[str]:
    """Every player of every session, each once, in order of first appearance."""
    return list(dict.fromkeys(p for s in sessions for p in s.players))


def deal_columns(players: Sequence[str]) -> list[Column]:
    columns = [*DEAL_COLUMNS]
    for player in players:
        change, money, total = player_columns(player)
        columns += [
            Column(change, CHANGE, translated=False),
            Column(money, SIGNED, translated=False),
            Column(total, CHANGE, translated=False),
        ]
    return [*columns, *DEAL_TAIL_COLUMNS]


def write_timeline(
    sessions: Sequence[SessionReport],
    deals: Sheet,
    ledger: Sheet,
    balance: Sheet,
    progress: Callable[[int], None] | None,
    header: str = "",
) -> Written:
    """Write the long sheets; Deals is printed with ``header`` on every page."""
    players = roster(sessions)
    columns = deal_columns(players)
    written = Written()
    parts = evening(sessions)
    many = len(parts) > 1
    balance_columns = [
        *BALANCE_COLUMNS,
        *(Column(player_chips(p), CHIPS, translated=False) for p in players),
    ]
    part_of: dict[int, EveningSeries] = {}
    for part in parts:
        reports = [s for s in sessions if s in part.sessions]
        fmt = max((money_format(s.currency, s.chip_value, signed=True) for s in reports), key=len)
        series = EveningSeries(part.currency, fmt)
        suffix = f" {part.currency}".rstrip() if many else ""
        for name in [*roster(reports), POT_SERIES]:
            shown = _(POT_SERIES) if name == POT_SERIES else name
            balance_columns.append(Column(shown + suffix, fmt, translated=False))
            series.columns[name] = len(balance_columns)
        written.evenings.append(series)
        for session in reports:
            part_of[id(session)] = series
    deals.set_widths(_deal_widths(sessions, columns), columns, header_cap=_player_cap())
    ledger.set_widths(_ledger_widths(sessions), LEDGER_COLUMNS)
    balance.set_widths(
        [_session_width(sessions), *(width_of(c.shown) + 3 for c in balance_columns[1:])],
        balance_columns,
    )
    deals.begin_table("DealsTable", columns)
    ledger.begin_table("LedgerTable", LEDGER_COLUMNS)
    balance.begin_table("BalanceTable", balance_columns)

    tick = _Progress(progress)
    money: dict[str, dict[str, Decimal]] = {}  # currency -> player -> evening money so far
    for session in sessions:
        series = part_of[id(session)]
        writer = _SessionWriter(
            session, players, deals, ledger, balance, series, money.setdefault(series.currency, {})
        )
        writer.write(tick)
        written.live_deals.append(writer.timeline.live)
        written.pots.append(writer.timeline.pot_flow)
        written.last_totals.append(writer.last_totals())
    tick.flush()
    for sheet in (deals, ledger, balance):
        sheet.end_table()
    printed = get_column_letter(len(columns) - len(DEAL_TAIL_COLUMNS))
    deals.ws.print_area = f"A1:{printed}{deals.rows}"
    deals.print_by_groups(
        header, first=len(DEAL_COLUMNS), group=3, title_columns=DEAL_TITLE_COLUMNS
    )
    return written


class _SessionWriter:
    """One session's rows on Deals, Ledger and Balance, in step: its timeline laid out."""

    def __init__(
        self,
        session: SessionReport,
        players: Sequence[str],
        deals: Sheet,
        ledger: Sheet,
        balance: Sheet,
        series: EveningSeries,
        money: dict[str, Decimal],
    ) -> None:
        self.session = session
        self.players = players
        self.deals, self.ledger, self.balance, self.series = deals, ledger, balance, series
        self.money = money  # the evening's money of each player, before this session
        self.start = dict(money)
        self.fmt = money_format(session.currency, session.chip_value)
        self.signed = money_format(session.currency, session.chip_value, signed=True)
        self.timeline = session.timeline()
        self.totals: dict[str, int] = {}  # the running totals the timeline gives
        self.pot = session.info.opening_pot

    def last_totals(self) -> dict[str, int]:
        return {p: self.totals.get(p, 0) for p in self.session.players}

    def write(self, tick: _Progress) -> None:
        session = self.session
        if self.series.first_row == 0:
            self.series.first_row = self.balance.rows + 1
        started = False  # the start's point is written with the first live deal's seating
        for row in self.timeline:
            if row.counts and not started:
                # Everyone at the first deal starts level: each of their lines starts at zero.
                self._balance_row(0, row.seated if row.kind == DEAL else session.players)
                started = True
            if row.counts:
                self.totals = {p: c for p, c in (row.totals or {}).items()}
                self.pot = row.pot if row.pot is not None else self.pot
                step: int | str = row.deal.number if row.deal else row.label
                self._balance_row(step, row.seated if row.kind == DEAL else session.players)
            self.deals.append(
                self._values(row), money=self.fmt, signed=self.signed, muted=not row.live
            )
            if row.counts:
                for t in row.payments:
                    self._ledger_row(row, t.payer, t.payee, t.chips)
            if row.kind == DEAL:
                tick.deal_written()
        if not started:  # nothing counted: one point, at the start
            self._balance_row(0, session.players)
        self.series.last_row = self.balance.rows

    def _values(self, row: Row) -> list[object]:
        """One row of the Deals sheet, as the timeline gives it."""
        session = self.session
        label: object = row.label or None
        if row.deal is not None:
            label = DealNumber(row.deal.number, row.deal.revision)
        values: list[object] = [
            session.name,
            label,
            # A deal's state always; a close's only where it was taken back.
            row.status_said if row.kind == DEAL or not row.live else None,
            row.dealer,
            row.bidder,
            row.bid,
            row.said,
            row.extras or None,
            row.pot,
            row.note,
        ]
        paid = dict(row.changes)
        # A close shows where everyone ends; a deal, those at the table for it.
        at_table = set(session.players if row.kind == CLOSING else row.seated)
        for player in self.players:
            change = paid.get(player)
            if not row.counts:
                shown = None if change is None else f"({signed(change)})"
                values += [shown, None, None]
                continue
            money = None if change is None else change * session.chip_value
            total = self.totals.get(player, 0) if player in at_table else None
            values += [change, money, total]
        revision = row.deal.revision if row.deal is not None else None
        return [*values, revision, row.recorded_at if row.deal is not None else None]

    def _ledger_row(self, row: Row, payer: str, payee: str, chips: int) -> None:
        session = self.session
        deal = row.deal
        self.ledger.append(
            [
                session.name,
                row.label if deal is None else DealNumber(deal.number, deal.revision),
                0 if deal is None else deal.revision,
                account_name(payer),
                account_name(payee),
                chips,
                chips * session.chip_value,
            ],
            money=self.fmt,
        )

    def _balance_row(self, number: int | str, seated: Sequence[str]) -> None:
        session, value = self.session, self.session.chip_value
        at_table = set(seated)
        for player in at_table:
            chips = self.totals.get(player, 0)
            self.money[player] = self.start.get(player, Decimal(0)) + chips * value
        row: list[object] = [session.name, number]
        # Chips: nothing (a gap, not a flat 0) for whoever was not at the table.
        row += [self.totals.get(p, 0) if p in at_table else None for p in self.players]
        width = len(self.balance.columns) - len(row)
        evening_cells: list[object] = [None] * width
        offset = len(row) + 1
        for name, column in self.series.columns.items():
            if name == POT_SERIES:
                evening_cells[column - offset] = self.pot * value
            else:
                # A player's evening money stands while they sit out; nothing before they sit.
                evening_cells[column - offset] = self.money.get(name)
        self.balance.append([*row, *evening_cells], money=self.fmt, signed=self.series.money)


def _deal_widths(sessions: Sequence[SessionReport], columns: Sequence[Column]) -> list[float]:
    """Widths from what the texts will be, so the long history is read only once.

    Kept narrow so that a printed page stays readable: long headers wrap, and a long
    name is cut at the column's edge rather than widening it.
    """
    name = min(max((len(p) for s in sessions for p in s.players), default=6), _NAME_CAP)
    bid = max((len(st.bid) for s in sessions for st in s.stakes), default=6)
    guesses = {
        "Session": _session_width(sessions),
        # A deal's number, or the close's row label in the language («закрытие»).
        "Deal": max(4, len(pot_row_label(CLOSE))),
        "Revision": 8,
        "Recorded at": 16,
        "Status": max(len(pgettext("deal status", s)) for s in ("live", "voided", "replaced")),
        "Dealer": name,
        "Bidder": name,
        "Bid": bid,
        "Outcome": len(made_said(10)),
        "Peeps, buys": _NAME_CAP,
        "Pot": 4,
        "Time": 5,
        "Note": 12,
    }
    # A player's change, money and total: numbers, a few characters wide; the money as
    # wide as the largest a deal could pay, written the language's way («−110,00 ₽»).
    money = _money_width(sessions)
    return [money if c.fmt == SIGNED else guesses.get(c.header, 6) + 1 for c in columns]


def _money_width(sessions: Sequence[SessionReport]) -> float:
    """Room for the most money one deal could move for a player: every stake paid by or
    to the whole table, twice over (a napoleon doubling the pot), or a session's total."""
    widest = 6.0
    for s in sessions:
        stake = max((max(st.win, st.lose) + st.fail_pot for st in s.stakes), default=1)
        chips = max(stake * len(s.players) * 2, *(abs(c) for c in s.chips.values()), s.pot)
        said = money_label(Decimal(-chips) * s.chip_value, s.currency, s.chip_value)
        widest = max(widest, len(said) + 2.0)
    return widest


def _player_cap() -> float:
    """How wide a player's number column may grow for its header: a short name, and the
    longest word the language puts beside it («изменение», „pieniądze”) unbroken."""
    return max(_PLAYER_CAP + 2, *(header_room(w) for w in header_words()))


def _session_width(sessions: Sequence[SessionReport]) -> int:
    """A session's name, cut at the column's edge past a point (it is repeated on every page)."""
    return min(max((len(s.name) for s in sessions), default=7), _SESSION_CAP)


def _ledger_widths(sessions: Sequence[SessionReport]) -> list[float]:
    name = max((len(p) for s in sessions for p in s.players), default=6)
    guesses = {"Session": _session_width(sessions), "Payer": name, "Payee": name, "Money": 12}
    return [max(width_of(c.shown) + 3, guesses.get(c.header, 6) + 1) for c in LEDGER_COLUMNS]
