"""The plain data an export is made from, read out of the book of one database."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from sqlalchemy import func, select

from napledger.core.history import Revision, scored_deals
from napledger.core.ledger import POT, postings
from napledger.core.rules import Rules
from napledger.core.rules.load import rules_to_dict
from napledger.core.rules.scoring import outcome
from napledger.export.data import DealRow, LedgerRow, SessionExport, StakeRow
from napledger.store.book import Book, SessionStore, net_money
from napledger.store.codec import DealRecord, read
from napledger.store.models import SessionRow, deals, sessions

_S = sessions.c
_D = deals.c
_BATCH = 1_000  # deal rows fetched at a time


def session_export(store: SessionStore) -> SessionExport:
    """The session's export; its deals are read from the store as the writer goes.

    Iterate the deals inside the transaction ``store`` belongs to.
    """
    book, row = store.book, store.row
    rules = store.rules()
    table = store.scoreboard()
    ledger: list[LedgerRow] = []
    shares: dict[str, int] = {}
    closes = [c for c in store.closes() if c.live]
    if row.closed_at is not None and row.pot_to and closes:
        # The shares the close stored (what hands lists), not worked out again here: each
        # is paid out of the pot.
        shares = {a: c for a, c in closes[-1].shares.items() if a != POT}
        ledger = [LedgerRow(None, 0, POT, a, c) for a, c in shares.items() if c]
    net, _, _ = net_money([store])
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
        players=store.everyone(),
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
        deals=StoredDeals(book, row, rules),
        ledger=ledger,
        absent=rules_data["absent"],
        opening_pot=row.opening_pot,
        carried_from=_name(book, row.carried_from),
        pot_to=row.pot_to if row.closed_at is not None else None,
        carried_to=store.carried_into(),
        close_shares=shares,
        roster=tuple(c for c in store.roster() if c.kind != "seat"),
    )


def _name(book: Book, session_id: int | None) -> str | None:
    if session_id is None:
        return None
    found = book.db.execute(select(_S.name).where(_S.id == session_id)).first()
    return found[0] if found else None


class StoredDeals:
    """A session's deals as export rows, read from the store each time they are iterated.

    One query, read in batches and scored as it goes, so a history of 50,000 deals never
    sits in memory. The transfers shown are derived from the records like everything
    else; `napledger verify` checks that they agree with the stored postings.
    """

    def __init__(self, book: Book, row: SessionRow, rules: Rules) -> None:
        self._book, self._row, self._rules = book, row, rules

    def __len__(self) -> int:
        query = select(func.count()).where(_D.session_id == self._row.id)
        return int(self._book.db.execute(query).scalar_one())

    def __iter__(self) -> Iterator[DealRow]:
        row, rules = self._row, self._rules
        for d in scored_deals(rules, self._records(), row.opening_pot):
            deal = d.deal
            if deal is None:  # a strict history has read every record
                continue
            # A voided or replaced deal keeps no entries: what it paid is scored again.
            paid = d.transfers if d.live else d.would_have_paid
            yield DealRow(
                number=d.number,
                revision=d.revision,
                status=d.status,
                dealer=deal.dealer,
                bidder=deal.bidder,
                bid=deal.bid,
                outcome=outcome(rules, deal),
                revoker=deal.revoker,
                peeps=deal.peeps,
                purchases=deal.buys,
                pot_after=d.stored_pot_after,
                changes={a: c for a, c in postings(paid).items() if a != POT},
                recorded_at=d.recorded_at or row.created_at,  # read with its times: never None
                note=deal.note,
                seated=deal.seated,
                ledger=tuple(
                    LedgerRow(d.number, d.revision, t.payer, t.payee, t.chips) for t in d.transfers
                ),
            )

    def _records(self) -> Iterator[Revision]:
        query = (
            select(
                _D.id,
                _D.number,
                _D.revision,
                _D.status,
                _D.record_json,
                _D.pot_after,
                _D.recorded_at,
            )
            .where(_D.session_id == self._row.id)
            .order_by(_D.number, _D.revision)
            .execution_options(yield_per=_BATCH)
        )
        for found in self._book.db.execute(query):
            yield read(DealRecord(*found))
