"""How the store keeps a deal: its record as JSON, and the shape of a stored revision.

The core scores `Revision`s (napledger/core/read/history.py), records already read; this is
where the store's rows become those, and where a record that cannot be read becomes a
revision carrying why (for `verify`) instead of a crash, unless asked to be strict.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict
from datetime import datetime
from types import MappingProxyType
from typing import NamedTuple

import orjson

from napledger.core.built import built
from napledger.core.errors import NapError
from napledger.core.read.history import Revision
from napledger.core.rules import Deal


def deal_to_json(deal: Deal) -> str:
    return json.dumps(asdict(deal), ensure_ascii=False)


def deal_from_json(text: str) -> Deal:
    # orjson reads what json wrote, at half the cost: `stats` reads every deal of a club.
    raw = orjson.loads(text)
    return built(  # Deal(...), at half the cost (napledger/core/built.py)
        Deal,
        seated=tuple(raw["seated"]),
        dealer=raw["dealer"],
        bid=raw["bid"],
        bidder=raw["bidder"],
        tricks=raw["tricks"],
        made=raw["made"],
        revoker=raw["revoker"],
        peeps=tuple(raw["peeps"]),
        buys=tuple((p, n) for p, n in raw["buys"]),
        note=raw.get("note"),  # records from before notes have none
        dealer_named=raw.get("dealer_named"),  # older records cannot say
    )


class DealRecord(NamedTuple):
    """One stored revision of a deal, as the store fetched it (the record and what is kept
    beside it). A named tuple: `stats` reads tens of thousands of them straight from rows."""

    id: int
    number: int
    revision: int
    status: str  # live, voided or replaced
    record_json: str
    pot_after: int  # as stored
    recorded_at: datetime | None = None  # None where the reader has no use for it
    changes: Mapping[str, int] = MappingProxyType({})  # the stored changes

    @property
    def live(self) -> bool:
        return self.status == "live"


def read(record: DealRecord, strict: bool = True) -> Revision:
    """The revision with its record read; one that cannot be read raises, unless `strict`
    is off (verify): then it carries the error and no deal."""
    deal: Deal | None = None
    error: str | None = None
    try:
        deal = deal_from_json(record.record_json)
    except (NapError, ValueError, KeyError, TypeError) as problem:
        if strict:
            raise
        error = str(problem)
    return Revision(
        record.id,
        record.number,
        record.revision,
        record.status,
        deal,
        record.pot_after,
        record.recorded_at,
        record.changes,
        error,
    )


def revisions(records: Iterable[DealRecord], strict: bool = True) -> Iterator[Revision]:
    """Each record read (`read`), in the order given, as it is asked for."""
    for record in records:
        yield read(record, strict)
