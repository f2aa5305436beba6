"""Settling up: one session's, or an evening's, one part per currency.

A `Settlement` is each party's net money over some sessions and the fewest payments
that square it (`napledger.core.settle`); an evening played in several currencies is
settled one currency at a time (`evening`), since sums of different money mean nothing.
The parties are listed in one order everywhere (`parties`): most money first, as the
board lists players by chips.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple, Protocol

from napledger.core.ledger import POT, account_name
from napledger.core.money import money_chips, shown_amount, summed_money
from napledger.core.read.board import SessionInfo
from napledger.core.settle import Transfer, settle
from napledger.core.words import _, ngettext


class Settlement(NamedTuple):
    """Each party's net money over some sessions and the fewest payments that square it."""

    sessions: Sequence[SessionInfo]
    net: Mapping[str, Decimal]
    currency: str
    chip_value: Decimal | None  # None when the sessions had different chip values
    transfers: Sequence[Transfer]
    places: int = 2  # money is shown with this many places (napledger.core.money)

    def shown_money(self, amount: Decimal | int, signed: bool = False, label: bool = False) -> str:
        """An amount of this settlement as a person reads it (`0.35`, `+0.35 GBP`)."""
        return shown_amount(amount, self.places, self.currency, signed, label)

    @property
    def notes(self) -> tuple[str, ...]:
        """What a settlement says beside its payments, in every front end: that everyone
        is square, and that an open session counts as if it closed now."""
        square = () if self.transfers else (everyone_square(),)
        open_ = any(s.closed_at is None for s in self.sessions)
        return (*square, *((as_if_closed_now(),) if open_ else ()))

    def transfer_said(self, transfer: Transfer) -> str:
        """One payment, as the page and the terminal say it: "Ben → Ann: 0.70 GBP"."""
        return paid_said(transfer, self.shown_money(transfer.amount, label=True))


def parties(net: Mapping[str, Decimal], players: Iterable[str] = ()) -> list[str]:
    """The parties of a settlement in the order every front end lists them: most money
    first (as the board lists players by chips), a tie in the order `players` gives them
    (as they sat), then as `net` lists them; money held in a carried pot last."""
    first = {p: i for i, p in enumerate(dict.fromkeys([*players, *net]))}
    people = [p for p in net if p != POT]
    people.sort(key=lambda p: (-net[p], first[p]))
    return [*people, POT] if net.get(POT) else people


def everyone_square() -> str:
    """What a settlement with no payments says."""
    return _("Everyone is square.")


def as_if_closed_now() -> str:
    """What a settlement counting an open session says of it, in every front end."""
    return _("An open session counts as if it closed now, with the pot split.")


def paid_said(transfer: Transfer, amount: str) -> str:
    """One payment of a settlement: "Ben → Ann: 0.70 GBP" (any name fits the sentence)."""
    return _("{payer} → {payee}: {amount}").format(
        payer=account_name(transfer.payer), payee=account_name(transfer.payee), amount=amount
    )


def payments_counted(n: int) -> str:
    """How many payments a settlement takes."""
    return ngettext("{n} payment", "{n} payments", n).format(n=n)


def settling_said(sessions: Sequence[str], payments: int) -> str:
    """A settlement's title: which sessions it squares, in how many payments."""
    return ngettext(
        "Settling {sessions}: {n} payment", "Settling {sessions}: {n} payments", payments
    ).format(sessions=", ".join(sessions), n=payments)


class Settled(Protocol):
    """What an evening needs of each session: its currency, chip value and net money."""

    @property
    def currency(self) -> str: ...
    @property
    def chip_value(self) -> Decimal: ...
    @property
    def net(self) -> Mapping[str, Decimal]: ...


@dataclass(frozen=True)
class EveningPart:
    """One currency's sessions of an evening, their summed net and one settlement."""

    currency: str
    sessions: tuple[Settled, ...]
    net: dict[str, Decimal]  # party (a player, or "pot" for money in a carried box) -> money
    plan: tuple[Transfer, ...]

    @property
    def chip_value(self) -> Decimal | None:
        """The one chip value of all its sessions; None when they differ (chips do not add)."""
        values = {s.chip_value for s in self.sessions}
        return values.pop() if len(values) == 1 else None

    def chips(self, party: str) -> int | None:
        return money_chips(self.net.get(party, Decimal(0)), self.chip_value)


def evening(sessions: Sequence[Settled]) -> list[EveningPart]:
    """One part per currency, in the order the currencies first appear; each part's plan
    is the one `settle --session a --session b` gives (the fewest payments squaring the
    sum of the sessions' nets)."""
    by_currency: dict[str, list[Settled]] = {}
    for session in sessions:
        by_currency.setdefault(session.currency, []).append(session)
    parts = []
    for currency, group in by_currency.items():
        net = summed_money(s.net for s in group)  # as `settle` adds them up
        parts.append(EveningPart(currency, tuple(group), net, tuple(settle(net))))
    return parts
