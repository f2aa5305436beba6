"""What a risky tap asks before it acts, in the table's words: each question names what
the tap will do ("Void deal 12: three by Ann, made?"), drawn from the board the page shows,
so a tap on a stale page never asks about another deal than the one it acts on."""

from __future__ import annotations

from dataclasses import dataclass

from napledger.core.words import _
from napledger.web.calls import Amending, Board


@dataclass(frozen=True)
class Questions:
    undo: str  # voids the last deal
    passing: str  # records the next deal as passed out
    leave: str  # "{player}" in it: the page puts in the player chosen
    void: str  # voids the deal being corrected ("" when none is)


def questions(board: Board, fixing: Amending | None = None) -> Questions:
    last = board.deals[0] if board.deals else None
    undo = _("Void deal {label}: {text}?").format(label=last.label, text=last.text) if last else ""
    void = (
        _("Void deal {label}: {text}?").format(label=fixing.label, text=fixing.text)
        if fixing
        else ""
    )
    return Questions(
        undo=undo,
        passing=_("Deal {number}: nobody bid. Record it as passed out?").format(
            number=board.next_number
        ),
        leave=_("Leaving the table: {player}?"),
        void=void,
    )
