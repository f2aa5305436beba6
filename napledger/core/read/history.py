"""A session's history: its deal records turned into scored deals, in one place.

Everything that shows or checks what happened — `hands`, the export, `verify` and
`stats` — reads the history from `score_history`, so a deal is scored the same way
everywhere. Pure: the store fetches and reads the records (napledger/store/codec.py),
this derives.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from types import MappingProxyType
from typing import NamedTuple

from napledger.core.built import built
from napledger.core.errors import NapError
from napledger.core.ledger import POT, Payment, changes_from
from napledger.core.read.said import deal_label
from napledger.core.rules import Deal, Rules, score_deal


class Revision(NamedTuple):
    """One stored revision of a deal with its record read (the store's codec reads it:
    napledger/store/codec.py) and what is kept beside it. A named tuple: `stats` reads
    tens of thousands of them."""

    id: int
    number: int
    revision: int
    status: str  # live, voided or replaced
    deal: Deal | None  # None: the record could not be read (`error` says why)
    pot_after: int  # as stored
    recorded_at: datetime | None = None  # None where the reader has no use for it
    changes: Mapping[str, int] = MappingProxyType({})  # the stored changes
    error: str | None = None  # why the record could not be read

    @property
    def live(self) -> bool:
        return self.status == "live"


@dataclass(frozen=True)
class ScoredDeal:
    """One revision of a deal with what the rules say it paid.

    `payments` and `pot_after` are derived from the records (empty and None unless the
    deal is live); `stored_pot_after` and `changes` are what the store keeps, which
    `verify` compares with them. `error` says why a record could not be scored.
    """

    id: int
    number: int
    revision: int
    status: str
    deal: Deal | None
    pot_before: int | None  # the pot the live deals before it left (None: unreadable)
    pot_after: int | None
    stored_pot_after: int
    changes: Mapping[str, int]
    recorded_at: datetime | None
    error: str | None = None
    rules: Rules | None = field(default=None, repr=False, compare=False)
    after_pass: bool = False  # the live deal before it was passed out (pass_doubles)

    @cached_property
    def payments(self) -> tuple[Payment, ...]:
        """Who paid whom in a live deal; scored when first read where the history was lazy."""
        return self.would_have_paid if self.live else ()

    @cached_property
    def would_have_paid(self) -> tuple[Payment, ...]:
        """What this revision pays, scored on the pot the live deals leave before it.

        For a voided or replaced deal (which keeps no changes), what it paid unless an
        earlier deal was corrected after it.
        """
        if self.rules is None or self.deal is None or self.pot_before is None:
            return ()
        return tuple(score_deal(self.rules, self.deal, self.pot_before, self.after_pass))

    @property
    def live(self) -> bool:
        return self.status == "live"

    @property
    def voided(self) -> bool:
        return self.status == "voided"

    @property
    def label(self) -> str:
        """How `hands` names this revision: N, or N.2 for deal N's second version."""
        return deal_label(self.number, self.revision)


def score_history(
    rules: Rules,
    records: Iterable[Revision],
    opening_pot: int,
    strict: bool = True,
    stored_pots: bool = False,
    after_pass: bool = False,
) -> Iterator[ScoredDeal]:
    """Score every live deal in order, each seeing the pot the live deals before it left.

    Records come in the order they are listed (by number, then revision). A record that
    cannot be scored raises, unless `strict` is off (verify): then it carries the error,
    as one the store could not read does, and the deals after it go on from the pot
    stored beside it.

    With `stored_pots`, each deal sees the pot stored after the live deal before it (which
    `verify` vouches for) and is scored only if its payments are read: `stats` over
    thousands of sessions reads them only for the deals that took the pot.

    A history extended by its newest deals starts from the pot the deals before them left
    (`opening_pot`) and whether the last of those was passed out (`after_pass`).
    """
    pot = opening_pot
    for record in records:
        payments: tuple[Payment, ...] | None = None
        pot_before, passed_before = pot, after_pass
        pot_after: int | None = None
        deal, error = record.deal, record.error
        try:
            if deal is not None and record.live and stored_pots:
                pot_after = record.pot_after
            elif deal is not None and record.live:
                payments = tuple(score_deal(rules, deal, pot, after_pass))
                pot_after = pot + changes_from(payments).get(POT, 0)
        except (NapError, ValueError, KeyError, TypeError) as problem:
            if strict:
                raise
            error = str(problem)
        if record.live:
            pot = pot_after if pot_after is not None else record.pot_after
            after_pass = deal is not None and deal.bid is None
        scored = built(  # ScoredDeal(...), at half the cost (napledger/core/built.py)
            ScoredDeal,
            id=record.id,
            number=record.number,
            revision=record.revision,
            status=record.status,
            deal=deal,
            pot_before=pot_before if error is None else None,
            pot_after=pot_after,
            stored_pot_after=record.pot_after,
            changes=record.changes,
            recorded_at=record.recorded_at,
            error=error,
            rules=rules,
            after_pass=passed_before,
        )
        if payments is not None:
            scored.__dict__["would_have_paid"] = payments  # already scored: not twice
        yield scored


def final_pot(history: Iterable[ScoredDeal], opening_pot: int) -> int:
    """The pot after the last live deal (what a close shares out)."""
    pot = opening_pot
    for scored in history:
        if scored.live:
            pot = scored.pot_after if scored.pot_after is not None else scored.stored_pot_after
    return pot
