"""Double entry: payments between accounts (players and the pot), balances, zero-sum checks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from napledger.core.words import _

POT = "pot"  # the pot's account; no player may take this name


def account_name(account: str) -> str:
    """A player's name as written; the pot's account in the language spoken (коробка, pula)."""
    return _("pot") if account == POT else account


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    chips: int


def changes_from(payments: Iterable[Payment]) -> dict[str, int]:
    """Each account's net change in chips; an account that nets to zero still appears."""
    net: Counter[str] = Counter()
    for t in payments:
        net[t.payer] -= t.chips
        net[t.payee] += t.chips
    return dict(net)


def imbalance(changes: Mapping[str, int]) -> int:
    """What a deal's changes fail to balance by: 0 for every honest deal."""
    return sum(changes.values())


def balances(
    deals: Iterable[Mapping[str, int]], start: Mapping[str, int] | None = None
) -> dict[str, int]:
    total: Counter[str] = Counter(start or {})
    for changes in deals:
        total.update(changes)
    return dict(total)


def in_seat_order(
    changes: Mapping[str, int], players: Sequence[str], involved: Iterable[str] = ()
) -> list[tuple[str, int]]:
    """One deal's changes in seat order, the pot last, leaving out those of 0 except the
    `involved` (a dealer who anted and won it back took part in the deal)."""
    changes = {**dict.fromkeys(involved, 0), **changes}
    keep = set(involved)
    seat = {p: i for i, p in enumerate(players)}
    ordered = sorted((a for a in changes if a != POT), key=lambda a: seat.get(a, len(seat)))
    paid = [(a, changes[a]) for a in ordered if changes[a] or a in keep]
    if changes.get(POT):
        paid.append((POT, changes[POT]))
    return paid
