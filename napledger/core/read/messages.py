"""What the evening says back after an action, in plain words, for every front end.

The terminal prints these lines, the page shows them; neither writes its own. Each is
said in the language spoken (napledger/core/words.py). They read what the service's
actions give back (napledger/store/views.py) through the few fields named here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Protocol

from napledger.core.ledger import Payment, account_name, in_seat_order
from napledger.core.money import shown_money
from napledger.core.numbers import signed, written
from napledger.core.read.board import Scoreboard
from napledger.core.read.said import deal_label, shares_said
from napledger.core.rules import Deal
from napledger.core.session import ClosePlan
from napledger.core.words import _, ngettext


class DealResult(Protocol):
    """A deal recorded or amended, as an action gives it back."""

    @property
    def number(self) -> int: ...
    @property
    def revision(self) -> int: ...
    @property
    def deal(self) -> Deal: ...
    @property
    def changes(self) -> Mapping[str, int]: ...
    @property
    def scoreboard(self) -> Scoreboard: ...


class CloseResult(Protocol):
    """A close, as the service gives it back (`store.views.CloseResult`; not the core's
    `session.Closed`, which the store saves): the pot's shares (none when carried)."""

    @property
    def payments(self) -> Sequence[Payment]: ...
    @property
    def scoreboard(self) -> Scoreboard: ...


def recorded(done: DealResult, passed: bool = False) -> str:
    """A deal recorded, and what it paid: "Deal 5 recorded: Ann +9, Ben -4, pot +1."."""
    paid = ", ".join(
        f"{account_name(a)} {signed(c)}"
        for a, c in in_seat_order(done.changes, done.scoreboard.players)
    )
    if passed:
        said = (
            _("Deal {n} recorded (passed out): {paid}.")
            if paid
            else _("Deal {n} recorded (passed out).")
        )
    else:
        said = _("Deal {n} recorded: {paid}.") if paid else _("Deal {n} recorded.")
    return said.format(n=done.number, paid=paid)


def deal_said(done: DealResult) -> str:
    """A deal recorded, as the terminal says it above its payments: "Deal 5 · Ann dealt ·
    Ben bid nap: made"."""
    from napledger.core.rules.scoring import describe

    return deal_number_said(done.number) + " · " + describe(done.scoreboard.rules, done.deal)


def deal_number_said(number: int) -> str:
    """A deal by its number: "Deal 5"."""
    return _("Deal {n}").format(n=number)


def amended_said(done: DealResult) -> str:
    """A deal amended, as the terminal says it above its payments: "Amended: Deal 5 · …
    (now 5.2)"."""
    return _("Amended: {deal} (now {label})").format(
        deal=deal_said(done), label=deal_label(done.number, done.revision)
    )


def amended(done: DealResult) -> str:
    """A deal amended: "Deal 5 amended (now 5.2)."."""
    return _("Deal {n} amended (now {label}).").format(
        n=done.number, label=deal_label(done.number, done.revision)
    )


def started(board: Scoreboard) -> list[str]:
    """A new session: its name and game, what a chip is worth, who sits and who deals."""
    from napledger.core.rules.texts import rule_text

    row = board.session
    if board.chip_value == 1 and not row.currency:
        worth = _("scored in chips (no money value set)")
    else:
        worth = _("1 chip = {money}").format(
            money=shown_money(1, board.chip_value, row.currency, label=True)
        )
    lines = [
        _("Session {name} (#{id}) started: {game}, {worth}, players {players}.").format(
            name=row.name,
            id=row.id,
            game=rule_text(board.rules.title),
            worth=worth,
            players=", ".join(board.seating),
        )
    ]
    if row.opening_pot:
        lines.append(
            ngettext(
                "The pot opens with {n} chip carried over.",
                "The pot opens with {n} chips carried over.",
                row.opening_pot,
            ).format(n=row.opening_pot)
        )
    lines.append(_("First to deal: {player}").format(player=board.next_dealer or ""))
    return lines


def close_question(plan: ClosePlan) -> str:
    """What closing would do, asked before it is done."""
    if plan.pot_to == "carry":
        pot = ngettext(
            "the pot ({n} chip) is carried to a next session",
            "the pot ({n} chips) is carried to a next session",
            plan.pot,
        ).format(n=plan.pot)
    elif plan.payments:
        shares = pot_shares(plan.payments)
        pot = ngettext(
            "the pot ({n} chip) goes to {shares}", "the pot ({n} chips) goes to {shares}", plan.pot
        ).format(n=plan.pot, shares=shares)
    else:
        pot = _("the pot is empty")
    return _("Close {session}? No more deals can be recorded; {pot}").format(
        session=plan.session, pot=pot
    )


def closed(done: CloseResult) -> str:
    board = done.scoreboard
    if board.session.pot_to == "carry":
        pot = _("stays in the box for the next session (--carry-from)")
    else:
        pot = pot_shares(done.payments) or _("empty")
    return _("Session {name} closed. Pot: {pot}.").format(name=board.session.name, pot=pot)


def pot_shares(payments: Sequence[Payment]) -> str:
    """Each player's share of a pot paid out at a close: "Ann +2, Ben +2"."""
    return shares_said((x.payee, x.chips) for x in payments)


def reopened(board: Scoreboard) -> str:
    return _("Session {name} reopened; its close is kept in the record, voided.").format(
        name=board.session.name
    )


def stays_open(session: str) -> str:
    """The answer to a close question answered no."""
    return _("{session} stays open.").format(session=session)


def voided(number: int) -> str:
    return _("Deal {n} voided.").format(n=number)


def joins(player: str) -> str:
    return _("{player} joins from the next deal.").format(player=player)


def leaves(player: str) -> str:
    return _("{player} leaves the table.").format(player=player)


def current(name: str, id: int) -> str:
    return _("Current session: {name} (#{id})").format(name=name, id=id)


def on_line(line: int, why: str) -> str:
    """A refusal about one line of a file read in (a typed score sheet): "line 7: …"."""
    return _("line {line}: {why}").format(line=line, why=why)


def corrected_label(label: str, number: int | str) -> str:
    """A refusal: a deal named by its label once corrected (`2.2`) where its number is due."""
    return _("{label} is deal {n} as corrected: give the deal's number, {n}").format(
        label=label, n=number
    )


def another_deal(seen: int, number: int) -> str:
    """A refusal: the version expected is of another deal than the one changed."""
    return _("names deal {seen}, not deal {n}").format(seen=seen, n=number)


def bought_by(player: str) -> str:
    """The cards a player bought, as a refusal of their count names them."""
    return _("cards bought by {player}").format(player=player)


def no_chip_total(chip_values: Iterable[Decimal]) -> str:
    """Why figures over sessions that value a chip differently add up money, not chips."""
    shown = [written(str(v)) for v in sorted(chip_values)]
    # 0,05; 0,5 where a decimal comma would run into a list's comma.
    values = ("; " if any("," in v for v in shown) else ", ").join(shown)
    return _(
        "No chip total: these sessions value a chip differently ({values}); "
        "money is added up instead."
    ).format(values=values)
