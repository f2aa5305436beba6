"""One session as a report reads it: what the workbook is written from.

The board, where the pot came from and went, each party's net money (as `settle` counts
it) and the timeline, whose deals the service streams: a history of 50,000 deals is read
again at each walk and never held whole. Nothing here knows a database or a workbook.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from napledger.core.ledger import POT
from napledger.core.read.board import Scoreboard, SessionInfo, Standing
from napledger.core.read.history import ScoredDeal
from napledger.core.read.timeline import CloseRecord, Timeline
from napledger.core.rules import Rules
from napledger.core.seating import RosterChange


@dataclass(frozen=True, eq=False)  # one session is itself: compared by identity
class SessionReport:
    board: Scoreboard
    # Each party's net money as `settle` counts it ("pot" where money sits in a carried
    # box; an open session as if closed now with the pot split).
    net: Mapping[str, Decimal]
    deals: Iterable[ScoredDeal]  # in order; read again at each walk
    records: int  # how many deal records (every version): a progress bar's total
    roster: Sequence[RosterChange] = ()
    closes: Sequence[CloseRecord] = ()
    carried_from: str | None = None  # the session the opening pot came from
    carried_to: str | None = None  # the session that took the pot carried on, once one has

    @property
    def info(self) -> SessionInfo:
        return self.board.session

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def rules(self) -> Rules:
        return self.board.rules

    @property
    def currency(self) -> str:
        return self.info.currency

    @property
    def chip_value(self) -> Decimal:
        return self.info.chip_value

    @property
    def created(self) -> datetime:
        return self.info.created_at

    @property
    def closed(self) -> datetime | None:
        return self.info.closed_at

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone who sat, in the order they sat down."""
        return self.board.players

    @property
    def standings(self) -> tuple[Standing, ...]:
        """The board's lines, in its order (most chips first)."""
        return self.board.standings

    @property
    def pot(self) -> int:
        """Chips left in the pot at the end."""
        return self.board.pot

    @property
    def pot_to(self) -> str | None:
        """How the pot left at the close: split, carry or a player; None while open."""
        return self.info.pot_to if self.closed is not None else None

    @property
    def close_shares(self) -> Mapping[str, int]:
        """Chips the live close paid each player out of the pot (none when carried, open)."""
        live = [c for c in self.closes if c.live]
        if self.pot_to is None or not live:
            return {}
        return {a: c for a, c in live[-1].shares.items() if a != POT}

    def timeline(self) -> Timeline:
        """The rows, made as they are read: walk them once."""
        return Timeline(
            self.rules,
            self.players,
            self.deals,
            self.roster,
            self.closes,
            self.info.opening_pot,
            self.carried_from,
            self.carried_to,
        )
