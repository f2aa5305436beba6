"""The plain data an export is made from, read out of the book of one database."""

from __future__ import annotations

from decimal import Decimal

from napledger.export.data import DealRow, LedgerRow, SessionExport, StakeRow
from napledger.ledger import POT, postings
from napledger.rules.load import rules_to_dict
from napledger.rules.model import Rules
from napledger.rules.scoring import Deal, close_transfers, outcome, replay
from napledger.store.book import Book, deal_from_json
from napledger.store.models import DealRow as StoredDeal
from napledger.store.models import SessionRow


def session_export(book: Book, row: SessionRow) -> SessionExport:
    rules = book.rules(row)
    table = book.table(row)
    rows = book.all_deals(row)
    entries = book.entries_by_deal(row)
    records = {r.id: deal_from_json(r.record_json) for r in rows}
    live = [r for r in rows if r.status == "live"]
    # The ledger shows transfers (who paid whom), derived from the records like everything
    # else; `napledger verify` checks that they agree with the stored postings.
    scored = replay(rules, (records[r.id] for r in live), row.opening_pot)
    ledger = [
        LedgerRow(r.number, r.revision, t.payer, t.payee, t.chips)
        for r, s in zip(live, scored, strict=True)
        for t in s.transfers
    ]
    if row.closed_at is not None and row.pot_to:
        pot_at_close = scored[-1].pot_after if scored else row.opening_pot
        ledger += [
            LedgerRow(None, 0, t.payer, t.payee, t.chips)
            for t in close_transfers(pot_at_close, table.seating, row.pot_to)
        ]
    net, _, _ = book.net_money([row])
    paid = _what_replaced_deals_paid(rules, row, rows, records)
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
                number=r.number,
                revision=r.revision,
                status=r.status,
                dealer=(d := records[r.id]).dealer,
                bidder=d.bidder,
                bid=d.bid,
                outcome=outcome(rules, d),
                revoker=d.revoker,
                peeps=d.peeps,
                purchases=d.buys,
                pot_after=r.pot_after,
                changes={
                    a: c
                    for a, c in (
                        entries.get(r.id, {}) if r.status == "live" else paid[r.id]
                    ).items()
                    if a != POT
                },
                recorded_at=r.recorded_at,
                note=d.note,
                seated=d.seated,
            )
            for r in rows
        ],
        ledger=ledger,
        absent=rules_data["absent"],
    )


def _what_replaced_deals_paid(
    rules: Rules, row: SessionRow, rows: list[StoredDeal], records: dict[int | None, Deal]
) -> dict[int | None, dict[str, int]]:
    """What each voided or replaced deal paid, scored on the pot the live deals leave before it.

    Those deals keep no entries, so they are scored again: with the pot as the ledger
    now stands, which is what they paid unless an earlier deal was corrected after them.
    """
    pot, paid = row.opening_pot, {}
    for r in rows:  # in deal order; a number's older revisions come before its live one
        if r.status == "live":
            pot = r.pot_after
        else:
            (scored,) = replay(rules, [records[r.id]], pot)
            paid[r.id] = postings(scored.transfers)
    return paid
