"""The plain data an export is made from, read out of the book of one database."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select

from napledger.export.data import DealRow, LedgerRow, SessionExport, StakeRow
from napledger.history import final_pot, score_history
from napledger.ledger import POT, postings
from napledger.rules.load import rules_to_dict
from napledger.rules.scoring import close_transfers, outcome
from napledger.store.book import Book
from napledger.store.models import SessionRow

_S = SessionRow.__table__.c  # type: ignore[attr-defined]


def session_export(book: Book, row: SessionRow) -> SessionExport:
    rules = book.rules(row)
    table = book.table(row)
    history = score_history(rules, book.records(row), row.opening_pot)
    # The ledger shows transfers (who paid whom), derived from the records like everything
    # else; `napledger verify` checks that they agree with the stored postings.
    ledger = [
        LedgerRow(d.number, d.revision, t.payer, t.payee, t.chips)
        for d in history
        for t in d.transfers
    ]
    shares: dict[str, int] = {}
    if row.closed_at is not None and row.pot_to:
        closing = close_transfers(final_pot(history, row.opening_pot), table.seating, row.pot_to)
        ledger += [LedgerRow(None, 0, t.payer, t.payee, t.chips) for t in closing]
        shares = {a: c for a, c in postings(closing).items() if a != POT}
    net, _, _ = book.net_money([row])
    rules_data = rules_to_dict(rules)
    settings = {k: "off" if v is None else v for k, v in rules_data["settings"].items()}
    return SessionExport(
        id=row.id or 0,
        name=row.name,
        variant=rules.title,
        currency=row.currency,
        chip_value=Decimal(row.chip_value),
        created=row.created_at,
        closed=row.closed_at,
        players=book.everyone(row),
        chips=table.chips,
        pot=table.pot,
        net=net,
        stakes=tuple(
            StakeRow(
                b.name, b.tricks, b.win, b.lose, b.misere, rules.enabled(b), b.pot_bid, b.fail_pot
            )
            for b in rules.bids
        ),
        settings=settings,
        deals=[
            DealRow(
                number=d.number,
                revision=d.revision,
                status=d.status,
                dealer=(deal := d.deal).dealer,
                bidder=deal.bidder,
                bid=deal.bid,
                outcome=outcome(rules, deal),
                revoker=deal.revoker,
                peeps=deal.peeps,
                purchases=deal.buys,
                pot_after=d.stored_pot_after,
                # A voided or replaced deal keeps no entries: what it paid is scored again.
                changes={
                    a: c
                    for a, c in (d.entries if d.live else postings(d.would_have_paid)).items()
                    if a != POT
                },
                recorded_at=d.recorded_at or row.created_at,  # read with its times: never None
                note=deal.note,
                seated=deal.seated,
            )
            for d in history
            if d.deal is not None  # a strict history has read every record
        ],
        ledger=ledger,
        absent=rules_data["absent"],
        opening_pot=row.opening_pot,
        carried_from=_name(book, row.carried_from),
        pot_to=row.pot_to if row.closed_at is not None else None,
        carried_to=_carried_to(book, row),
        close_shares=shares,
    )


def _name(book: Book, session_id: int | None) -> str | None:
    if session_id is None:
        return None
    found = book.db.execute(select(_S.name).where(_S.id == session_id)).first()
    return found[0] if found else None


def _carried_to(book: Book, row: SessionRow) -> str | None:
    """The session that opened with this one's carried pot, if any has yet."""
    query = select(_S.name).where(_S.carried_from == row.id)
    found = book.db.execute(query).first()
    return found[0] if found else None
