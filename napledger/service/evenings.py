"""A session's whole history as plain data, and the same history played again.

`evening(tx, row)` reads a session as its ledger keeps it (the rules as frozen, the opening
seating, every deal revision, void, join, leave, close and reopen) into one JSON-ready
document whose events stand in the order they were made; `replay(tx, document, name)`
makes a new session of it in another ledger (or this one) through the session API, call
by call, as the table made it: every chip and every pot is scored again by the rules,
none is copied. It then compares what it made with what the document says was kept, and
refuses (`NapError`) anything that came out otherwise.

The order of events is the order they were recorded in. Ledgers from before voids kept
their time (schema 0011) have a void played right after the revision it voided; roster
changes are placed between the deals they came between (`from_deal`), whatever time an
old ledger's upgrade gave them.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from napledger.core.errors import NapError
from napledger.core.options import DealOptions
from napledger.core.read import importing as said
from napledger.core.rules import Deal, rules_from_dict
from napledger.core.rules.model import fold
from napledger.store import identity
from napledger.store.codec import deal_from_json
from napledger.store.models import SessionRow

if TYPE_CHECKING:
    from napledger.service.api import SessionAPI, Transaction

FORMAT = 1  # the document's shape; a reader refuses a newer one
TICK = timedelta(microseconds=1)
FIRST = datetime.min.replace(tzinfo=UTC)
LAST = datetime.max.replace(tzinfo=UTC)


def ledger_key(ledger: str, session: int) -> str:
    return f"ledger {ledger} session {session}"


def ledger_id(tx: Transaction) -> str:
    """This ledger's id (store/identity.py)."""
    found = identity.read(tx.book.db.connection())
    if found is None:  # every ledger upgraded to schema 0010 has one
        raise NapError("the ledger has no id")
    return found[0]


def source_key(tx: Transaction, row: SessionRow) -> str:
    """Where the evening of `row` first came from: the source it was imported from (an
    import of an import keeps the first), else this ledger's session itself."""
    return row.source or ledger_key(ledger_id(tx), row.id)


def _utc(when: datetime | None) -> datetime | None:
    if when is None:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _iso(when: datetime | None) -> str | None:
    when = _utc(when)
    return None if when is None else when.isoformat()


def head(tx: Transaction, row: SessionRow) -> dict[str, Any]:
    """Everything of the session of `row` but its events (`events`): its terms, where it
    came from, and its closes as kept (to compare the replay's with)."""
    store = tx.book.session(row)
    roster = store.roster_rows()
    seating = sorted((seat, player) for _, kind, player, seat, _ in roster if kind == "seat")
    return {
        "format": FORMAT,
        "source": source_key(tx, row),
        "id": row.id,
        "name": row.name,
        "rules": json.loads(row.rules_json),
        "chip_value": row.chip_value,
        "currency": row.currency,
        "players": [p for _, p in seating] or json.loads(row.players_json),
        "dealer": row.first_dealer,
        "opening_pot": row.opening_pot,
        "carried_from": (
            None
            if row.carried_from is None
            else source_key(tx, tx.book.row(row.carried_from) or row)
        ),
        "carried_from_name": tx.book.session_name(row.carried_from),
        "language": row.language,
        "created_at": _iso(row.created_at),
        "closed_at": _iso(row.closed_at),
        "records": store.record_count(),
        "closes": [
            [pot_to, pot, json.loads(shares), status == "live"]
            for pot_to, pot, shares, status, _, _ in store.close_rows()
        ],
    }


def events(tx: Transaction, row: SessionRow) -> Iterator[list[Any]]:
    """The session's events in the order they were made, each with the time it was made:
    ["deal", when, number, revision, record], ["void", when, number], ["join", when,
    player, seat], ["leave", when, player], ["close", when, to], ["reopen", when]. The
    deals stream from the store in batches: a history of 50,000 deals is never whole."""
    store = tx.book.session(row)
    roster, closes = store.roster_rows(), store.close_rows()
    deals = (
        ((_utc(at) or FIRST, 0, number, revision), ["deal", _iso(at), number, revision, _raw(r)])
        for number, revision, _, r, at, _ in store.deals_in_time()
    )
    voids = [
        ((_utc(voided or at) or FIRST, 1, number, 0), ["void", _iso(voided or at), number])
        for number, at, voided in store.voids_in_time()
    ]
    others: list[tuple[tuple[datetime, int, int, int], list[Any]]] = []
    for order, (from_deal, kind, player, seat, recorded_at) in enumerate(roster):
        if kind == "seat":
            continue
        # Between the deals it came between: after the first version of every deal
        # before `from_deal`, before that of every deal from it on.
        low, high = store.dealt_around(from_deal)
        after, before = _utc(low) or FIRST, _utc(high) or LAST
        at = min(max(_utc(recorded_at) or after, after + TICK), before - TICK)
        stamp = _iso(recorded_at)
        event = ["join", stamp, player, seat] if kind == "join" else ["leave", stamp, player]
        others.append(((at, 2, order, 0), event))
    for order, (pot_to, _, _, status, closed_at, reopened_at) in enumerate(closes):
        at = _utc(closed_at) or LAST
        others.append(((at, 3, order, 0), ["close", _iso(closed_at), pot_to]))
        if status != "live":
            when = _utc(reopened_at) or at
            others.append(((when, 3, order, 1), ["reopen", _iso(when)]))
    others.sort(key=lambda e: e[0])
    for _, event in heapq.merge(deals, voids, others, key=lambda e: e[0]):
        yield event


def _raw(record: str) -> dict[str, Any]:
    return asdict(deal_from_json(record))


def evening(tx: Transaction, row: SessionRow) -> dict[str, Any]:
    """The session of `row` as a document `replay` makes again (see the module)."""
    return head(tx, row) | {"events": list(events(tx, row))}


def records(document: dict[str, Any]) -> int:
    """How many deal records (every version) the document holds."""
    return int(document["records"])


def options_of(deal: Deal) -> DealOptions:
    """The options that make `deal` whole, over a fresh deal or any earlier version."""
    return DealOptions(
        bid=deal.bid if deal.bid is not None else "pass",
        by=deal.bidder,
        tricks=deal.tricks,
        made=deal.made is True and deal.tricks is None,
        failed=deal.made is False and deal.tricks is None,
        revoke=deal.revoker,
        dealer=deal.dealer,
        peeps=deal.peeps or None,
        no_peeps=not deal.peeps,
        buys=deal.buys or None,
        no_buys=not deal.buys,
        note=deal.note or "",
    )


def _deal(raw: dict[str, Any]) -> Deal:
    return deal_from_json(json.dumps(raw, ensure_ascii=False))


def replay(
    tx: Transaction,
    document: dict[str, Any],
    name: str,
    carried_from: str | None,
    step: Callable[[int], None] | None = None,
) -> int:
    """The document's session made again in `tx` under `name`, its pot carried on from
    session `carried_from` (an id here) where it was; returns the new session's id.
    `step(n)` is told of each deal record made."""
    if document.get("format") != FORMAT:
        raise NapError(said.unreadable_records())
    rules = rules_from_dict(document["rules"], "the session's stored rules")
    board = tx.new_session(
        name,
        rules,
        document["players"],
        Decimal(document["chip_value"]),
        document["currency"],
        document["dealer"],
        carried_from,
        document.get("language"),
        as_kept=True,
    )
    s = tx.session(str(board.session.id))
    wanted: dict[tuple[int, int], dict[str, Any]] = {}
    voided: set[int] = set()
    for event in document["events"]:
        _act(s, event)
        if event[0] == "deal":
            wanted[event[2], event[3]] = event[4]
            voided.discard(event[2])
            if step is not None:
                step(1)
        elif event[0] == "void":
            voided.add(event[2])
    _same(s, document, name, wanted, voided)
    s.store.came_from(document["source"], created_at=datetime.fromisoformat(document["created_at"]))
    return board.session.id


def _act(s: SessionAPI, event: list[Any]) -> None:
    """One event played again, and stamped with the time it was first made."""
    kind, when, *args = event
    _play(s, kind, args)
    if when is not None:
        s.store.stamp(
            kind, datetime.fromisoformat(when), args[0] if kind in ("deal", "void") else None
        )


def _play(s: SessionAPI, kind: str, args: list[Any]) -> None:
    if kind == "deal":
        number, revision, raw = args
        deal = _deal(raw)
        if revision != 1:  # a later version: the deal amended
            s.amend(number, options_of(deal))
        elif deal.bid is None:
            s.pass_(
                DealOptions(dealer=deal.dealer, peeps=deal.peeps, buys=deal.buys, note=deal.note)
            )
        else:
            s.record(options_of(deal))
    elif kind == "void":
        s.void(args[0])
    elif kind == "join":
        player, seat = args
        seating = s.scoreboard().seating
        s.join(player, seating[seat - 1] if 0 < seat < len(seating) else None)
    elif kind == "leave":
        s.leave(args[0])
    elif kind == "close":
        s.close(args[0])
    elif kind == "reopen":
        s.reopen()
    else:
        raise NapError(said.unreadable_records())


def _folded(value: Any) -> str:
    """A value as JSON with names folded: a ledger spells a player as it first met them."""
    return fold(json.dumps(value, ensure_ascii=False, sort_keys=True))


def _same(
    s: SessionAPI,
    document: dict[str, Any],
    name: str,
    wanted: dict[tuple[int, int], dict[str, Any]],
    voided: set[int],
) -> None:
    """What was made is what the document kept: every revision with its status (the last
    of a number voided if a void came after it, the others replaced), and every close with
    its pot and shares (the money itself is derived, so it follows)."""
    deals, _roster, closes = s.store.kept_rows()
    last = {number: revision for number, revision in sorted(wanted)}
    expected = [
        [n, r, ("voided" if n in voided else "live") if last[n] == r else "replaced", deal]
        for (n, r), deal in sorted(wanted.items())
    ]
    made = [[n, r, status, _raw(record)] for n, r, status, record, *_ in deals]
    for got, want in zip(_padded(made, expected), _padded(expected, made), strict=True):
        if got is None or want is None or not _deals_agree(got, want):
            number = (want or got or [0])[0]
            raise NapError(said.not_exact(name, number))
    shut = [[p, pot, json.loads(shares), status == "live"] for p, pot, shares, status, *_ in closes]
    if _folded(shut) != _folded(document["closes"]):
        raise NapError(said.not_exact(name, None))


def _padded(a: list[Any], b: list[Any]) -> Iterable[Any]:
    return [*a, *([None] * (len(b) - len(a)))]


def _deals_agree(got: list[Any], want: list[Any]) -> bool:
    got_deal, want_deal = dict(got[3]), dict(want[3])
    if want_deal.get("dealer_named") is None:  # older records cannot say
        got_deal["dealer_named"] = want_deal["dealer_named"] = None
    return _folded([*got[:3], got_deal]) == _folded([*want[:3], want_deal])
