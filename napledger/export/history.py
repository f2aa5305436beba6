"""The long sheets, streamed in one pass over each session's deals.

Deals, Ledger and Balance are written side by side (openpyxl keeps each
write-only sheet in its own temporary file), so memory stays flat however long
the history, and ``progress`` moves with the real work: a deal's ledger rows
are written just after the deal.

The history reconciles on paper: a pot carried in gets an opening row saying
where it came from, each join and leave a row between the deals (the timeline of
`hands`, worded by napledger.core.reading), the close a row with each player's share
(or where the pot was carried), so the last running total of every player is the
Summary's.
A voided or replaced deal is shown greyed with what it had paid in brackets, as
text: no column a person would add up counts it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from openpyxl.utils import get_column_letter

from napledger.core import reading
from napledger.core.ledger import account_name
from napledger.core.numbers import signed
from napledger.core.rules.texts import bid_name
from napledger.core.seating import RosterChange
from napledger.core.words import N_, NC_, _, ngettext, pgettext
from napledger.export.cells import CHANGE, CHIPS, DATETIME, DealNumber, money_format, money_label
from napledger.export.data import DealRow, LedgerRow, SessionExport
from napledger.export.evening import evening
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


@dataclass(frozen=True)
class PotFlow:
    """Where one session's pot came from and went, in chips."""

    carried_in: int
    paid_in: int  # by the live deals that added to it (antes, fees, failed bids)
    taken: int  # by the live deals that took from it (a nap taking the pot)
    left: int  # in it after the last deal, before the close


@dataclass
class History:
    live_deals: list[int] = field(default_factory=list)  # per session, in order
    voided: list[int] = field(default_factory=list)  # deal numbers voided, per session
    pots: list[PotFlow] = field(default_factory=list)  # per session, in order
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


def roster(sessions: Sequence[SessionExport]) -> list[str]:
    """Every player of every session, each once, in order of first appearance."""
    return list(dict.fromkeys(p for s in sessions for p in s.players))


def deal_columns(players: Sequence[str]) -> list[Column]:
    columns = [*DEAL_COLUMNS]
    for player in players:
        columns += [
            Column(_("{player} change").format(player=player), CHANGE, translated=False),
            Column(_("{player} money").format(player=player), SIGNED, translated=False),
            Column(_("{player} total").format(player=player), CHANGE, translated=False),
        ]
    return [*columns, *DEAL_TAIL_COLUMNS]


def write_history(
    sessions: Sequence[SessionExport],
    deals: Sheet,
    ledger: Sheet,
    balance: Sheet,
    progress: Callable[[int], None] | None,
    header: str = "",
) -> History:
    """Write the long sheets; Deals is printed with ``header`` on every page."""
    players = roster(sessions)
    columns = deal_columns(players)
    history = History()
    parts = evening(sessions)
    many = len(parts) > 1
    balance_columns = [
        *BALANCE_COLUMNS,
        *(Column(_("{player} chips").format(player=p), CHIPS, translated=False) for p in players),
    ]
    part_of: dict[int, EveningSeries] = {}
    for part in parts:
        fmt = max(
            (money_format(s.currency, s.chip_value, signed=True) for s in part.sessions), key=len
        )
        series = EveningSeries(part.currency, fmt)
        suffix = f" {part.currency}".rstrip() if many else ""
        for name in [*roster(part.sessions), POT_SERIES]:
            shown = _(POT_SERIES) if name == POT_SERIES else name
            balance_columns.append(Column(shown + suffix, fmt, translated=False))
            series.columns[name] = len(balance_columns)
        history.evenings.append(series)
        for session in part.sessions:
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
        history.live_deals.append(writer.live)
        history.voided.append(len(writer.voided - writer.live_numbers))
        history.pots.append(writer.pot_flow())
        history.last_totals.append(writer.totals)
    tick.flush()
    for sheet in (deals, ledger, balance):
        sheet.end_table()
    printed = get_column_letter(len(columns) - len(DEAL_TAIL_COLUMNS))
    deals.ws.print_area = f"A1:{printed}{deals.rows}"
    deals.print_by_groups(
        header, first=len(DEAL_COLUMNS), group=3, title_columns=DEAL_TITLE_COLUMNS
    )
    return history


class _SessionWriter:
    """One session's rows on Deals, Ledger and Balance, in step."""

    def __init__(
        self,
        session: SessionExport,
        players: Sequence[str],
        deals: Sheet,
        ledger: Sheet,
        balance: Sheet,
        series: EveningSeries,
        money: dict[str, Decimal],
    ) -> None:
        self.session = session
        self.players = players
        self.deals, self.balance, self.series = deals, balance, series
        self.money = money  # the evening's money of each player, before this session
        self.start = dict(money)
        self.fmt = money_format(session.currency, session.chip_value)
        self.signed = money_format(session.currency, session.chip_value, signed=True)
        self.transfers = _Transfers(session, ledger, self.fmt)
        self.totals = dict.fromkeys(session.players, 0)
        self.live = 0
        self.live_numbers: set[int] = set()  # an amended deal's replaced versions are not
        self.voided: set[int] = set()  # voided, though their number is no longer live
        self.paid_in = self.taken = 0
        self.pot = session.opening_pot

    def write(self, tick: _Progress) -> None:
        session = self.session
        seated = set(session.players)
        if session.opening_pot:
            said = reading.pot_carried_in(session.opening_pot, session.carried_from)
            self._event_row(reading.pot_row_label(reading.OPEN), said, self.pot)
        if self.series.first_row == 0:
            self.series.first_row = self.balance.rows + 1
        started = False  # the start's point is written with the first live deal's seating
        # A join or leave stands before the first deal it is in force for, as in `hands`.
        changes = list(session.roster)
        for deal in session.deals:
            while changes and changes[0].from_deal <= deal.number:
                self._roster_row(changes.pop(0))
            live = deal.status == "live"
            if live:
                self.live_numbers.add(deal.number)
            elif deal.status == "voided":
                self.voided.add(deal.number)
            if live and not started:
                # Everyone at the first deal starts level: each of their lines starts at zero.
                self._balance_row(0, _seated(session, deal))
                started = True
            if live:
                self.live += 1
                moved = 0
                for player, chips in deal.changes.items():
                    if player not in seated:
                        raise ValueError(
                            f"session {session.id} deal {deal.number}: "
                            f"{player!r} is not one of the session's players"
                        )
                    self.totals[player] += chips
                    moved += chips
                # Transfers sum to zero: what the players lost together went into the pot.
                if moved < 0:
                    self.paid_in -= moved
                else:
                    self.taken += moved
                self.pot = deal.pot_after
                self._balance_row(deal.number, _seated(session, deal))
            self.deals.append(
                _deal_values(session, deal, self.players, self.totals if live else None),
                money=self.fmt,
                signed=self.signed,
                muted=not live,
            )
            self.transfers.write_deal(deal)
            tick.deal_written()
        if not started:
            self._balance_row(0, session.players)
        self.left = self.pot
        for change in changes:  # in force from the next deal
            self._roster_row(change)
        if session.pot_to is not None:
            self._close(session.pot_to)
        self.transfers.write_through(None)
        self.series.last_row = self.balance.rows

    def pot_flow(self) -> PotFlow:
        return PotFlow(self.session.opening_pot, self.paid_in, self.taken, self.left)

    def _close(self, pot_to: str) -> None:
        session = self.session
        shares = session.close_shares
        for player, chips in shares.items():
            self.totals[player] = self.totals.get(player, 0) + chips
        if pot_to != "carry":
            self.pot = 0
        told = reading.pot_at_close(self.left, pot_to, session.carried_to)
        self._event_row(
            reading.pot_row_label(reading.CLOSE), told, self.pot, shares, session.players
        )
        self._balance_row(reading.pot_row_label(reading.CLOSE), session.players)

    def _roster_row(self, change: RosterChange) -> None:
        """A row for a player joining or leaving the table, between the deals."""
        self._event_row(None, reading.roster_said(change), None)

    def _event_row(
        self,
        label: str | None,
        outcome: str,
        pot: int | None,
        changes: Mapping[str, int] | None = None,
        shown: Sequence[str] = (),
    ) -> None:
        """A row of the timeline between the deals: the pot coming in or going out, a join
        or a leave (no pot shown); ``shown`` players get their totals."""
        session = self.session
        changes = changes or {}
        values: list[object] = [session.name, label, None, None, None, None, outcome]
        values += [None, pot, None]
        for player in self.players:
            change = changes.get(player)
            values += [
                change,
                None if change is None else change * session.chip_value,
                self.totals.get(player) if player in shown else None,
            ]
        values += [None, None]
        self.deals.append(values, money=self.fmt, signed=self.signed)

    def _balance_row(self, number: int | str, seated: Sequence[str]) -> None:
        session, value = self.session, self.session.chip_value
        at_table = set(seated)
        for player in at_table:
            self.money[player] = self.start.get(player, Decimal(0)) + self.totals[player] * value
        row: list[object] = [session.name, number]
        # Chips: nothing (a gap, not a flat 0) for whoever was not at the table.
        row += [self.totals.get(p) if p in at_table else None for p in self.players]
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


# A deal record's state in the Status column.
STATUSES = (
    NC_("deal status", "live"),
    NC_("deal status", "voided"),
    NC_("deal status", "replaced"),
)


def status_text(status: str) -> str:
    return pgettext("deal status", status)


def _seated(session: SessionExport, deal: DealRow | None) -> Sequence[str]:
    if deal is None or deal.seated is None:
        return session.players
    # A player with a payment in the deal was at the table, whatever the record says.
    return [*deal.seated, *deal.changes]


def _deal_values(
    session: SessionExport,
    deal: DealRow,
    players: Sequence[str],
    totals: dict[str, int] | None,
) -> list[object]:
    """One row of the Deals sheet; ``totals`` is None for a deal that does not count.

    A deal that does not count (voided, or replaced by a correction) still shows
    what it had paid, in brackets and as text, so the correction can be read and
    no sum of the column includes it; its money and totals are left blank.
    """
    bought = _("{player} buys {n}")
    extras = [*deal.peeps, *(bought.format(player=p, n=cards) for p, cards in deal.purchases)]
    outcome = deal.outcome
    values: list[object] = [
        session.name,
        DealNumber(deal.number, deal.revision),
        status_text(deal.status),
        deal.dealer,
        deal.bidder,
        bid_name(deal.bid) if deal.bid else deal.bid,
        outcome,
        ", ".join(extras) or None,
        deal.pot_after,
        deal.note,
    ]
    at_table = set(_seated(session, deal))
    for player in players:
        change = deal.changes.get(player) if player in at_table else None
        if totals is None:
            values += [None if change is None else f"({signed(change)})", None, None]
            continue
        money = None if change is None else change * session.chip_value
        total = totals.get(player) if player in at_table else None
        values += [change, money, total]
    return [*values, deal.revision, deal.recorded_at]


class _Transfers:
    """Feeds a session's ledger rows out in step with its deals."""

    def __init__(self, session: SessionExport, sheet: Sheet, fmt: str) -> None:
        self._session = session
        self._sheet = sheet
        self._fmt = fmt
        self._rows: Iterator[LedgerRow] = iter(session.ledger)
        self._next: LedgerRow | None = next(self._rows, None)

    def write_deal(self, deal: DealRow) -> None:
        """The transfers of ``deal`` and those listed for the deals up to it."""
        for row in deal.ledger:
            self._write(row)
        self.write_through(deal.number)

    def _write(self, row: LedgerRow) -> None:
        session = self._session
        self._sheet.append(
            [
                session.name,
                reading.pot_row_label(reading.CLOSE)
                if row.deal is None
                else DealNumber(row.deal, row.revision),
                row.revision,
                account_name(row.payer),
                account_name(row.payee),
                row.chips,
                row.chips * session.chip_value,
            ],
            money=self._fmt,
        )

    def write_through(self, deal: int | None) -> None:
        """Write the rows up to ``deal`` (all that are left when None), in their given order."""
        while self._next is not None and (
            deal is None or (self._next.deal is not None and self._next.deal <= deal)
        ):
            self._write(self._next)
            self._next = next(self._rows, None)


def _deal_widths(sessions: Sequence[SessionExport], columns: Sequence[Column]) -> list[float]:
    """Widths from what the texts will be, so the long history is read only once.

    Kept narrow so that a printed page stays readable: long headers wrap, and a long
    name is cut at the column's edge rather than widening it.
    """
    name = min(max((len(p) for s in sessions for p in s.players), default=6), _NAME_CAP)
    bid = max((len(st.bid) for s in sessions for st in s.stakes), default=6)
    guesses = {
        "Session": _session_width(sessions),
        # A deal's number, or the close's row label in the language («закрытие»).
        "Deal": max(4, len(reading.pot_row_label(reading.CLOSE))),
        "Revision": 8,
        "Recorded at": 16,
        "Status": max(len(pgettext("deal status", s)) for s in ("live", "voided", "replaced")),
        "Dealer": name,
        "Bidder": name,
        "Bid": bid,
        "Outcome": len(ngettext("made ({n} trick)", "made ({n} tricks)", 5)) - 1,
        "Peeps, buys": _NAME_CAP,
        "Pot": 4,
        "Time": 5,
        "Note": 12,
    }
    # A player's change, money and total: numbers, a few characters wide; the money as
    # wide as the largest a deal could pay, written the language's way («−110,00 ₽»).
    money = _money_width(sessions)
    return [money if c.fmt == SIGNED else guesses.get(c.header, 6) + 1 for c in columns]


def _money_width(sessions: Sequence[SessionExport]) -> float:
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
    said = (_("{player} change"), _("{player} money"), _("{player} total"))
    words = [w for text in said for w in text.replace("{player}", " ").split()]
    return max(_PLAYER_CAP + 2, *(header_room(w) for w in words))


def _session_width(sessions: Sequence[SessionExport]) -> int:
    """A session's name, cut at the column's edge past a point (it is repeated on every page)."""
    return min(max((len(s.name) for s in sessions), default=7), _SESSION_CAP)


def _ledger_widths(sessions: Sequence[SessionExport]) -> list[float]:
    name = max((len(p) for s in sessions for p in s.players), default=6)
    guesses = {"Session": _session_width(sessions), "Payer": name, "Payee": name, "Money": 12}
    return [max(width_of(c.shown) + 3, guesses.get(c.header, 6) + 1) for c in LEDGER_COLUMNS]
