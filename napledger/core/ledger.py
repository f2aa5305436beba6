"""Double entry: transfers between accounts (players and the pot), balances, zero-sum checks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

POT = "pot"  # the pot's account; no player may take this name


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    chips: int


def postings(transfers: Iterable[Transfer]) -> dict[str, int]:
    """Each account's net change in chips; an account that nets to zero still appears."""
    net: Counter[str] = Counter()
    for t in transfers:
        net[t.payer] -= t.chips
        net[t.payee] += t.chips
    return dict(net)


def imbalance(entries: Mapping[str, int]) -> int:
    """What a deal's postings fail to balance by: 0 for every honest deal."""
    return sum(entries.values())


def balances(
    deals: Iterable[Mapping[str, int]], start: Mapping[str, int] | None = None
) -> dict[str, int]:
    total: Counter[str] = Counter(start or {})
    for entries in deals:
        total.update(entries)
    return dict(total)
