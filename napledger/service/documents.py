"""The `--json` documents: the sessions, one session's scoreboard, its deals, its timeline,
a settlement, stats.

`table --json`, `hands --json` and `settle --json` print them, and the page serves the same
ones at `/s/N/json`, so a script reads one shape whichever it asks.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from napledger.core.money import money_chips, money_text
from napledger.core.read.board import Scoreboard, SessionInfo
from napledger.core.read.history import ScoredDeal
from napledger.core.read.settlement import Settlement
from napledger.core.read.timeline import History
from napledger.core.rules import Deal
from napledger.core.rules.scoring import outcome
from napledger.core.tally import Figures, PlayerFigures
from napledger.core.words import speaking

if TYPE_CHECKING:
    from napledger.service.api import SessionAPI


def session_json(row: SessionInfo) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "variant": row.variant,
        "chip_value": str(row.chip_value),
        "currency": row.currency,
        "closed": row.closed_at is not None,
    }


def sessions_json(boards: list[Scoreboard], current: int | None) -> dict[str, Any]:
    return {
        "sessions": [
            session_json(t.session) | {"current": t.session.id == current, "hands": t.hands}
            for t in boards
        ]
    }


def table_json(t: Scoreboard) -> dict[str, Any]:
    return {
        "session": session_json(t.session),
        "players": [
            {"name": p, "chips": t.chips[p], "money": t.money(t.chips[p])} for p in t.players
        ],
        "pot": t.pot,
        "hands": t.hands,
    }


def table_document(s: SessionAPI) -> dict[str, Any]:
    """`table --json`: the board, and what a change may expect of it (the seating's
    version for `join/leave --expect`, the closes so far for `close/reopen --expect`)."""
    return table_json(s.scoreboard()) | {
        "seating_version": s.seating_version(),
        "closes": s.closes_made(),
    }


def hands_json(history: History) -> list[dict[str, Any]]:
    """Every deal as the machine-read document: its outcome in English, whatever the
    language spoken (the JSON documents are a fixed format)."""
    with speaking("en"):
        return _hands_json(history)


def _hands_json(history: History) -> list[dict[str, Any]]:
    t = history.scoreboard
    out = []
    for d in history.deals:
        deal = _read(d)
        out.append(
            {
                "number": d.number,
                "revision": d.revision,
                "label": d.label,  # as every front end names it: 5, or 5.2 once amended
                "status": d.status,
                "voided": d.voided,
                "dealer": deal.dealer,
                "seated": list(deal.seated),
                "bidder": deal.bidder,
                "bid": deal.bid,
                "tricks": deal.tricks,
                "outcome": outcome(t.rules, deal),
                "revoker": deal.revoker,
                "peeps": list(deal.peeps),
                "buys": {p: n for p, n in deal.buys},
                "note": deal.note,
                "pot_after": d.stored_pot_after if d.live else None,
                # Who paid whom is derived from the records, as every payment is; `changes`
                # is what the store keeps (`napledger verify` checks that the two agree).
                # The keys are the document's contract and keep their names.
                "transfers": [
                    {
                        "from": x.payer,
                        "to": x.payee,
                        "chips": x.chips,
                        "money": t.money(x.chips),
                    }
                    for x in d.payments
                ],
                "changes": dict(d.changes) if d.live else {},
                "recorded_at": _stamp(d).isoformat(timespec="seconds"),
            }
        )
    return out


def timeline_json(history: History) -> list[dict[str, Any]]:
    """The timeline's rows as `hands` and the page list them (napledger.core.read.timeline):
    the pot carried in, every deal, each join and leave, each close, in English."""
    with speaking("en"):
        return [
            {
                "kind": row.kind,
                "label": row.label,
                "status": row.status,
                "said": row.said,
                "dealer": row.dealer,
                "bidder": row.bidder,
                "bid": row.bid,
                "extras": row.extras,
                "note": row.note,
                # In seat order, the pot last: what it paid, or had paid where it no longer
                # counts.
                "payments": [[account, chips] for account, chips in row.changes],
                "pot": row.pot,
            }
            for row in history.rows()
        ]


def _read(d: ScoredDeal) -> Deal:
    assert d.deal is not None  # a strict history has read every record
    return d.deal


def _stamp(d: ScoredDeal) -> datetime:
    assert d.recorded_at is not None  # a session's history is read with its times
    return d.recorded_at


def settlement_json(done: Settlement) -> dict[str, Any]:
    plan, chip_value, shown = done.transfers, done.chip_value, done.places
    return {
        "transfers": [
            {
                "from": p.payer,
                "to": p.payee,
                # Chips mean something only when every session counted had one chip value.
                "chips": money_chips(Decimal(p.amount), chip_value),
                "money": money_text(Decimal(p.amount), shown),
            }
            for p in plan
        ]
    }


def money_json(tally: Figures, stats: PlayerFigures) -> str | dict[str, str]:
    """One decimal string when every session counted shares a currency; else one per currency."""
    if len(tally.currencies) <= 1:
        shown = max(tally.places.values(), default=0)
        return money_text(sum(stats.money.values(), Decimal(0)), shown)
    return {c: money_text(m, tally.places[c]) for c, m in sorted(stats.money.items())}


def stats_json(
    tally: Figures, rows: list[PlayerFigures], first: date | None, last: date | None
) -> dict[str, Any]:
    def percent(value: Decimal | None) -> str | None:
        return None if value is None else str(value)

    return {
        "since": first.isoformat() if first else None,
        "until": last.isoformat() if last else None,
        "currencies": sorted(tally.currencies),
        # When sessions value a chip differently, lifetime chips are null: only money adds up.
        "chip_values": sorted(str(v) for v in tally.chip_values),
        "players": [
            {
                "name": s.name,
                "sessions": s.sessions,
                "deals": s.deals,
                "bids": s.bids.bids,
                "made": s.bids.made,
                "failed": s.bids.failed,
                "made_percent": percent(s.bids.made_percent),
                "chips": s.chips if tally.chips_add_up else None,
                "money": money_json(tally, s),
                "money_by_currency": {
                    c: money_text(m, tally.places[c]) for c, m in sorted(s.money.items())
                },
                "biggest_win": s.biggest_win,
                "biggest_loss": s.biggest_loss,
                "naps_made": s.naps_made,
                "treasure": s.treasure,
                "by_bid": {
                    name: {
                        "bids": t.bids,
                        "made": t.made,
                        "failed": t.failed,
                        "made_percent": percent(t.made_percent),
                    }
                    for name, t in s.by_bid.items()
                },
            }
            for s in rows
        ],
    }
