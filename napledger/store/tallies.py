"""The queries behind `stats`: totals in SQL, per-deal facts from the records and the rules."""

from __future__ import annotations

import json
from datetime import datetime
from decimal import Decimal
from itertools import groupby
from operator import itemgetter

from sqlalchemy import func, select
from sqlmodel import Session

from napledger.core.ledger import POT
from napledger.core.read.history import score_history
from napledger.core.tally import Figures, Tally
from napledger.store.book import B, Book, D, E, P, S, cached_rules
from napledger.store.codec import DealRecord, revisions


def known_players(db: Session) -> list[str]:
    return list(db.execute(select(P.name).order_by(P.id)).scalars())


def lifetime(book: Book, since: datetime | None = None, until: datetime | None = None) -> Figures:
    """Every player's figures over the sessions started in [since, until); voided deals never count."""
    db = book.db
    started = []
    if since is not None:
        started.append(S.created_at >= since)
    if until is not None:
        started.append(S.created_at < until)
    chosen = select(S.id).where(*started).scalar_subquery()
    tally = Tally()

    sessions = db.execute(
        select(S.id, S.rules_json, S.chip_value, S.currency, S.players_json, S.opening_pot).where(
            *started
        )
    ).all()
    facts = {}
    for sid, rules_json, chip_value, currency, players_json, opening_pot in sessions:
        tally.session(json.loads(players_json), currency, Decimal(chip_value))
        facts[sid] = (cached_rules(rules_json), Decimal(chip_value), currency, opening_pot)

    # Each account's chips in each session: the balances the database keeps beside the
    # entries (their sums, a row per account), not a sum over every entry of the club.
    totals = select(B.session_id, B.account, B.chips).where(
        B.session_id.in_(chosen), B.account != POT
    )
    for sid, account, chips in db.execute(totals):
        _, chip_value, currency, _ = facts[sid]
        tally.result(account, int(chips), chip_value, currency)

    # Grouped as the covering index orders the entries (by session, then account), and
    # brought together here: grouped by account alone, SQLite sorted every entry first.
    swings = (
        select(E.account, func.max(E.chips), func.min(E.chips))
        .where(E.session_id.in_(chosen), E.account != POT, E.deal_id.is_not(None))
        .group_by(E.session_id, E.account)
    )
    extremes: dict[str, tuple[int, int]] = {}
    for account, best, worst in db.execute(swings):
        was = extremes.get(account)
        extremes[account] = (
            (int(best), int(worst)) if was is None else (max(was[0], best), min(was[1], worst))
        )
    for account, (best, worst) in extremes.items():
        tally.swings(account, best, worst)

    deals = (
        select(
            D.session_id,
            D.id,
            D.number,
            D.revision,
            D.status,
            D.record_json,
            D.pot_after,
        )
        .where(D.session_id.in_(chosen), D.status == "live")
        .order_by(D.session_id, D.number)
    )
    # Fetched at once through the connection (no ORM row handling), each record decoded
    # once, in order per session.
    rows = db.connection().execute(deals).all()
    for sid, records in groupby(rows, key=itemgetter(0)):
        rules, _, _, opening_pot = facts[sid]
        # The stored pots (which verify vouches for): a deal is scored only if it took the pot.
        for scored in score_history(
            rules, revisions(DealRecord(*r[1:]) for r in records), opening_pot, stored_pots=True
        ):
            tally.deal(rules, scored)
    return tally.figures()
