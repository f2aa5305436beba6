"""The long sheets, streamed in one pass over each session's deals.

Deals, Ledger and Balance are written side by side (openpyxl keeps each
write-only sheet in its own temporary file), so memory stays flat however long
the history, and ``progress`` moves with the real work: a deal's ledger rows
are written just after the deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from napledger.export.cells import CHANGE, CHIPS, DATETIME, money_format
from napledger.export.data import DealRow, LedgerRow, SessionExport
from napledger.export.sheet import MONEY, Column, Sheet, width_of

PROGRESS_EVERY = 500  # deals between two progress calls
_NAME_CAP = 16  # characters of a name column on the Deals sheet

# Sessions are named as the reader knows them (their ids appear nowhere else).
DEAL_COLUMNS = (
    Column("Session"),
    Column("Deal", numeric=True),
    Column("Revision", numeric=True),
    Column("Status", indent=True),  # clear of the revision number to its left
    Column("Dealer"),
    Column("Bidder"),
    Column("Bid"),
    Column("Outcome"),
    Column("Revoker"),
    Column("Peeps"),
    Column("Purchases"),
    Column("Pot after", CHIPS),
    Column("Recorded at", DATETIME),
    Column("Note", indent=True),  # clear of the time to its left
)
LEDGER_COLUMNS = (
    Column("Session"),
    Column("Deal", numeric=True),
    Column("Revision", numeric=True),
    Column("Payer", indent=True),
    Column("Payee"),
    Column("Chips", CHIPS),
    Column("Money", MONEY),
)
BALANCE_COLUMNS = (Column("Session"), Column("Deal", numeric=True))


@dataclass
class BalanceBlock:
    """Where one session's running balances sit on the Balance sheet, for its chart."""

    session: SessionExport
    first_row: int
    last_row: int
    columns: dict[str, int] = field(default_factory=dict)  # player -> column number
    # Points (0 is the first row) a player has with a gap on both sides, as when they sat
    # in for one deal: a line draws nothing there, so the chart marks them.
    isolated: dict[str, list[int]] = field(default_factory=dict)

    @property
    def points(self) -> int:
        return self.last_row - self.first_row + 1


@dataclass
class History:
    live_deals: list[int] = field(default_factory=list)  # per session, in order
    blocks: list[BalanceBlock] = field(default_factory=list)


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


def write_history(
    sessions: Sequence[SessionExport],
    deals: Sheet,
    ledger: Sheet,
    balance: Sheet,
    progress: Callable[[int], None] | None,
) -> History:
    players = roster(sessions)
    deal_columns = [*DEAL_COLUMNS]
    for player in players:
        deal_columns += [
            Column(f"{player} change", CHANGE),
            Column(f"{player} money", MONEY),
            Column(f"{player} total", CHIPS),
        ]
    balance_columns = [*BALANCE_COLUMNS, *(Column(p, CHIPS) for p in players)]
    deals.set_widths(_deal_widths(sessions, deal_columns), deal_columns)
    ledger.set_widths(_ledger_widths(sessions), LEDGER_COLUMNS)
    balance.set_widths(
        [_session_width(sessions), *(width_of(c.header) + 3 for c in balance_columns[1:])],
        balance_columns,
    )
    deals.begin_table("DealsTable", deal_columns)
    ledger.begin_table("LedgerTable", LEDGER_COLUMNS)
    balance.begin_table("BalanceTable", balance_columns)

    history = History()
    tick = _Progress(progress)
    for session in sessions:
        live = _write_session(session, players, deals, ledger, balance, history, tick)
        history.live_deals.append(live)
    tick.flush()
    for sheet in (deals, ledger, balance):
        sheet.end_table()
    return history


def _write_session(
    session: SessionExport,
    players: Sequence[str],
    deals: Sheet,
    ledger: Sheet,
    balance: Sheet,
    history: History,
    tick: _Progress,
) -> int:
    fmt = money_format(session.currency, session.chip_value)
    seated = set(session.players)
    totals = dict.fromkeys(session.players, 0)
    transfers = _Transfers(session, ledger, fmt)

    block = BalanceBlock(session, balance.rows + 1, balance.rows + 1)
    # Who has a point in the row before the last one written, and in the last one.
    before: set[str] = set()
    last: set[str] = set()

    def balance_row(number: int, seated: Sequence[str]) -> None:
        nonlocal before, last
        now = set(seated)
        for player in last - before - now:  # the last row's point stands alone
            block.isolated.setdefault(player, []).append(balance.rows - block.first_row)
        before, last = last, now
        # Nothing (a gap in the chart, not a flat 0) for whoever was not at the table.
        balance.append(
            [session.name, number, *(totals.get(p) if p in seated else None for p in players)]
        )

    first_player_column = len(BALANCE_COLUMNS) + 1
    block.columns = {p: first_player_column + i for i, p in enumerate(players) if p in seated}
    first = next((d for d in session.deals if d.status == "live"), None)
    # Everyone at the first deal starts level, so each of their lines starts at zero.
    balance_row(0, _seated(session, first))
    live_count = 0
    for deal in session.deals:
        live = deal.status == "live"
        if live:
            live_count += 1
            for player, chips in deal.changes.items():
                if player not in seated:
                    raise ValueError(
                        f"session {session.id} deal {deal.number}: "
                        f"{player!r} is not one of the session's players"
                    )
                totals[player] += chips
            balance_row(deal.number, _seated(session, deal))
        deals.append(
            _deal_values(session, deal, players, totals if live else None),
            money=fmt,
            muted=not live,
        )
        transfers.write_through(deal.number)
        tick.deal_written()
    transfers.write_through(None)
    block.last_row = balance.rows
    for player in last - before:
        block.isolated.setdefault(player, []).append(block.points - 1)
    history.blocks.append(block)
    return live_count


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
    what it had paid, so the correction can be read; the row is greyed.
    """
    purchases = ", ".join(f"{name} {cards}" for name, cards in deal.purchases)
    values: list[object] = [
        session.name,
        deal.number,
        deal.revision,
        deal.status,
        deal.dealer,
        deal.bidder,
        deal.bid,
        deal.outcome,
        deal.revoker,
        ", ".join(deal.peeps) or None,
        purchases or None,
        deal.pot_after,
        deal.recorded_at,
        deal.note,
    ]
    at_table = set(_seated(session, deal))
    for player in players:
        change = deal.changes.get(player) if player in at_table else None
        money = None if change is None else change * session.chip_value
        total = None if totals is None or player not in at_table else totals.get(player)
        values += [change, money, total]
    return values


class _Transfers:
    """Feeds a session's ledger rows out in step with its deals."""

    def __init__(self, session: SessionExport, sheet: Sheet, fmt: str) -> None:
        self._session = session
        self._sheet = sheet
        self._fmt = fmt
        self._rows: Iterator[LedgerRow] = iter(session.ledger)
        self._next: LedgerRow | None = next(self._rows, None)

    def write_through(self, deal: int | None) -> None:
        """Write the rows up to ``deal`` (all that are left when None), in their given order."""
        session, value = self._session, self._session.chip_value
        while self._next is not None and (
            deal is None or (self._next.deal is not None and self._next.deal <= deal)
        ):
            row = self._next
            self._sheet.append(
                [
                    session.name,
                    "close" if row.deal is None else row.deal,
                    row.revision,
                    row.payer,
                    row.payee,
                    row.chips,
                    row.chips * value,
                ],
                money=self._fmt,
            )
            self._next = next(self._rows, None)


def _deal_widths(sessions: Sequence[SessionExport], columns: Sequence[Column]) -> list[float]:
    """Widths from what the texts will be, so the long history is read only once.

    Kept narrow so that a printed page, as wide as the sheet, stays readable: long
    headers wrap, and a long name is cut at the column's edge rather than widening it.
    """
    name = min(max((len(p) for s in sessions for p in s.players), default=6), _NAME_CAP)
    bid = max((len(st.bid) for s in sessions for st in s.stakes), default=6)
    guesses = {
        "Session": _session_width(sessions),
        "Deal": 5,
        "Revision": 8,
        "Status": len("replaced"),
        "Dealer": name,
        "Bidder": name,
        "Bid": bid,
        "Outcome": max(len("failed (10 tricks)"), len("revoke by ") + name),
        "Revoker": name,
        "Peeps": name,
        "Purchases": name + 2,
        "Pot after": 5,
        "Recorded at": 16,
        "Note": 24,
    }
    # A player's change, money and total: numbers, a few characters wide.
    return [guesses.get(c.header, 8) + 1 for c in columns]


def _session_width(sessions: Sequence[SessionExport]) -> int:
    """A session's name, cut at the column's edge past a point (it is repeated on every page)."""
    return min(max((len(s.name) for s in sessions), default=7), _NAME_CAP)


def _ledger_widths(sessions: Sequence[SessionExport]) -> list[float]:
    name = max((len(p) for s in sessions for p in s.players), default=6)
    guesses = {"Session": _session_width(sessions), "Payer": name, "Payee": name, "Money": 12}
    return [max(width_of(c.header) + 3, guesses.get(c.header, 6) + 1) for c in LEDGER_COLUMNS]
