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
from napledger.core.read.notes import Stake, stakes
from napledger.core.read.said import deals_counted, shares_said
from napledger.core.read.timeline import CloseRecord, PotFlow, Timeline
from napledger.core.rules import Rules
from napledger.core.rules.texts import rule_text
from napledger.core.seating import RosterChange
from napledger.core.words import _


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
    def chips(self) -> Mapping[str, int]:
        """Each player's chips at the end (after any close)."""
        return self.board.chips

    @property
    def pot(self) -> int:
        """Chips left in the pot at the end."""
        return self.board.pot

    @property
    def stakes(self) -> tuple[Stake, ...]:
        """The session's stake table, bid by bid."""
        return stakes(self.rules)

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

    # --- what a report says of the session ---------------------------------------

    def line_said(self, live: int, chip: str, started: str, closed: str | None) -> str:
        """The session in one line under its name: its game, what a chip is worth (`chip`
        as written), when it started and closed (as written; None: still open), how many
        deals count (the voided ones apart)."""
        started_said = _("started {when}").format(when=started)
        closed_said = _("closed {when}").format(when=closed) if closed else _("open")
        chip_said = _("a chip is {money}").format(money=chip)
        return (
            f"{rule_text(self.rules.title)} · {chip_said} · {started_said}, {closed_said} · "
            f"{deals_counted(live, self.board.voided)}"
        )

    def pot_in_said(self) -> str:
        """The pot carried in, as a party of the session's totals."""
        if self.carried_from:
            return _("from {session}'s pot").format(session=self.carried_from)
        return _("from a carried pot")

    def pot_left_said(self) -> str:
        """What is left in the pot at the end, as a party of the session's totals."""
        if self.pot_to == "carry":
            if self.carried_to:
                return _("carried to {session}").format(session=self.carried_to)
            return _("carried on")
        return _("left in the pot")

    def pot_flow_said(self, pot: PotFlow) -> str:
        """Where the session's pot came from and went, in chips."""
        parts = []
        if pot.carried_in:
            if self.carried_from:
                said = _("{n} carried in from {session}").format(
                    n=pot.carried_in, session=self.carried_from
                )
            else:
                said = _("{n} carried in").format(n=pot.carried_in)
            parts.append(said)
        parts += [
            _("{n} paid in").format(n=pot.paid_in),
            _("{n} taken by bids").format(n=pot.taken),
        ]
        if self.pot_to is None:
            end = _("{n} left in it (open: settle splits it)").format(n=pot.left)
        elif self.pot_to == "carry":
            if self.carried_to:
                end = _("{n} carried to {session}").format(n=pot.left, session=self.carried_to)
            else:  # no session has taken it yet; "to the next session" would sit in its quotes
                end = _("{n} carried on").format(n=pot.left)
        elif self.pot_to == "split":
            shares = shares_said(self.close_shares.items())
            end = _("{n} split at the close").format(n=pot.left) + (
                f" ({shares})" if shares else ""
            )
        else:
            end = _("{n} to {player} at the close").format(n=pot.left, player=self.pot_to)
        return _("Pot (chips): {flow}").format(flow=" · ".join([*parts, end]))
