"""The plain, frozen values the session API returns: no ORM row leaves the store.

Those with nothing worked out lazily are named tuples: a frozen dataclass costs every
command that imports the store about a millisecond to define (issue #23).

The plan of a close is the core's (`napledger.core.session.ClosePlan`) and the read model
(the board, the history, a settlement) is napledger/core/read/'s: import them from there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from napledger.core.ledger import Payment
from napledger.core.read.board import Scoreboard
from napledger.core.rules import Deal, Rules


class DealResult(NamedTuple):
    """A deal recorded or amended: N.revision, the record, and what each account gained."""

    number: int
    revision: int
    deal: Deal
    changes: Mapping[str, int]
    scoreboard: Scoreboard


class VoidResult(NamedTuple):
    """A deal voided or undone, as the service answers a front end (the core's `Voided` is
    the action's outcome the store saves): its number, and the scoreboard after it."""

    number: int
    scoreboard: Scoreboard


class SeatResult(NamedTuple):
    """A join or a leave, as the service answers a front end (the core's `Seated` is the
    action's outcome): the player as the book spells them, and the scoreboard after it."""

    player: str
    scoreboard: Scoreboard


class CloseResult(NamedTuple):
    """A close, as the service answers a front end (the core's `Closed` is the action's
    outcome): the pot's payments to the players, and the scoreboard after it."""

    payments: Sequence[Payment]  # the pot shared out (none when carried)
    scoreboard: Scoreboard


class TableView(NamedTuple):
    """What table mode's prompt and short forms need between commands."""

    name: str
    seated: tuple[str, ...]
    rules: Rules
    number: int  # the number the next deal gets
    dealer: str | None  # None once closed
