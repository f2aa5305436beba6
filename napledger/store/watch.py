"""Cheap questions a long-running page asks many times a second: has anything changed?

Plain aggregate queries over indexed columns, the same on SQLite and PostgreSQL, so a
server notices deals written by any other process (a one-shot `hand`, `play`, another
table on the club's database) without any notification machinery.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlmodel import Session

from napledger.store.models import DealRevision, RosterRow, SessionRow

D = DealRevision.__table__.c  # type: ignore[attr-defined]
R = RosterRow.__table__.c  # type: ignore[attr-defined]
S = SessionRow.__table__.c  # type: ignore[attr-defined]


def fingerprint(db: Session, session_id: int) -> tuple[object, ...]:
    """Changes whenever a deal is recorded, voided or amended, a player joins or leaves,
    or the session closes or reopens: ids only grow, and voiding changes the live count."""
    deals = select(func.max(D.id), func.count(D.id).filter(D.status == "live")).where(
        D.session_id == session_id
    )
    newest, live = db.execute(deals).one()
    roster = db.execute(select(func.max(R.id)).where(R.session_id == session_id)).scalar()
    closed = db.execute(select(S.closed_at).where(S.id == session_id)).scalar()
    return (newest or 0, live, roster or 0, str(closed))


def recorded_since(db: Session, session_id: int, after_id: int) -> list[tuple[int, str]]:
    """Deals written after the deal with id `after_id`: (id, "N" or "N.revision")."""
    query = (
        select(D.id, D.number, D.revision)
        .where(D.session_id == session_id, D.id > after_id)
        .order_by(D.id)
    )
    return [
        (deal_id, f"{number}.{revision}" if revision > 1 else str(number))
        for deal_id, number, revision in db.execute(query).all()
    ]
