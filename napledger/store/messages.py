"""What the ledger says back after an action, in plain words, for every front end.

The terminal prints these lines, the page shows them; neither writes its own.
"""

from __future__ import annotations

from napledger.core.ledger import in_seat_order
from napledger.core.money import chips_money
from napledger.core.numbers import signed
from napledger.store.views import Closed, ClosePlan, DealResult, Scoreboard


def recorded(done: DealResult, passed: bool = False) -> str:
    """A deal recorded, and what it paid: "Deal 5 recorded: Ann +9, Ben -4, pot +1."."""
    what = "recorded (passed out)" if passed else "recorded"
    paid = ", ".join(
        f"{a} {signed(c)}" for a, c in in_seat_order(done.changes, done.scoreboard.players)
    )
    return f"Deal {done.number} {what}: {paid}." if paid else f"Deal {done.number} {what}."


def started(board: Scoreboard) -> list[str]:
    """A new session: its name and game, what a chip is worth, who sits and who deals."""
    row = board.session
    if board.chip_value == 1 and not row.currency:
        worth = "scored in chips (no money value set)"
    else:
        worth = f"1 chip = {chips_money(1, board.chip_value, row.currency, label=True)}"
    lines = [
        f"Session {row.name} (#{row.id}) started: {board.rules.title}, {worth}, "
        f"players {', '.join(board.seating)}."
    ]
    if row.opening_pot:
        lines.append(f"The pot opens with {row.opening_pot} chips carried over.")
    lines.append(f"First to deal: {board.next_dealer or ''}")
    return lines


def close_question(plan: ClosePlan) -> str:
    """What closing would do, asked before it is done."""
    if plan.pot_to == "carry":
        pot = f"the pot ({plan.pot} chips) is carried to a next session"
    elif plan.transfers:
        shares = ", ".join(f"{x.payee} +{x.chips}" for x in plan.transfers)
        pot = f"the pot ({plan.pot} chips) goes to {shares}"
    else:
        pot = "the pot is empty"
    return f"Close {plan.session}? No more deals can be recorded; {pot}"


def closed(done: Closed) -> str:
    board = done.scoreboard
    if board.session.pot_to == "carry":
        pot = "stays in the box for the next session (--carry-from)"
    else:
        pot = ", ".join(f"{x.payee} +{x.chips}" for x in done.transfers) or "empty"
    return f"Session {board.session.name} closed. Pot: {pot}."


def reopened(board: Scoreboard) -> str:
    return f"Session {board.session.name} reopened; its close is kept in the record, voided."
