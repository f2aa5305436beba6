"""The evening as a whole: each player's total over its sessions and one settlement.

Sessions played for different currencies cannot be added up, so an evening is
one part per currency, each settled on its own. Within a part the plan is the
one `napledger settle --session a --session b` gives: the fewest payments that
square the sum of the sessions' nets. Nothing here imports openpyxl.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from napledger.core.money import money_chips, summed_money
from napledger.core.settle import Payment, settle
from napledger.export.data import SessionExport


@dataclass(frozen=True)
class EveningPart:
    currency: str
    sessions: tuple[SessionExport, ...]
    net: dict[str, Decimal]  # party (a player, or "pot" for money in a carried box) -> money
    plan: tuple[Payment, ...]

    @property
    def chip_value(self) -> Decimal | None:
        """The one chip value of all its sessions; None when they differ (chips do not add)."""
        values = {s.chip_value for s in self.sessions}
        return values.pop() if len(values) == 1 else None

    def chips(self, party: str) -> int | None:
        return money_chips(self.net.get(party, Decimal(0)), self.chip_value)


def evening(sessions: Sequence[SessionExport]) -> list[EveningPart]:
    """One part per currency, in the order the currencies first appear."""
    by_currency: dict[str, list[SessionExport]] = {}
    for session in sessions:
        by_currency.setdefault(session.currency, []).append(session)
    parts = []
    for currency, group in by_currency.items():
        net = summed_money(s.net for s in group)  # as `settle` adds them up
        parts.append(EveningPart(currency, tuple(group), net, tuple(settle(net))))
    return parts
