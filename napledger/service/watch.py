"""Cheap questions a long-running page asks at every change: what has changed?

`Changes` says that the database may have changed, whoever wrote to it (a one-shot
`hand`, `play`, another table on the club's database, the server itself), without reading
any session: SQLite's data version, PostgreSQL's LISTEN/NOTIFY. Then `fingerprint`, plain
aggregate queries over indexed columns, says whether a watched session is among the
changed (`fingerprints`: every session's, for the list of sessions), and
`recorded_since` which deals arrived.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import create_engine, func, make_url, select
from sqlmodel import Session

from napledger.core.errors import NapError
from napledger.core.read.said import deal_label
from napledger.store.db import CHANGES_CHANNEL, sqlite_path
from napledger.store.models import deals, roster, sessions

if TYPE_CHECKING:
    import psycopg

D = deals.c
R = roster.c
S = sessions.c


def fingerprint(db: Session, session_id: int) -> tuple[object, ...]:
    """Changes whenever a deal is recorded, voided or amended, a player joins or leaves,
    or the session closes or reopens.

    Each part only grows (a new deal takes a higher number, a voided or replaced revision
    never comes back) and each is read from an index without walking the evening: the
    highest number, and the few voided and replaced revisions counted.
    """
    revisions = select(func.count()).select_from(deals).where(D.session_id == session_id)
    standing = select(
        select(func.max(D.number)).where(D.session_id == session_id).scalar_subquery(),
        revisions.where(D.status == "voided").scalar_subquery(),
        revisions.where(D.status == "replaced").scalar_subquery(),
    )
    last, voided, replaced = db.execute(standing).one()
    roster = db.execute(select(func.max(R.id)).where(R.session_id == session_id)).scalar()
    closed = db.execute(select(S.closed_at).where(S.id == session_id)).scalar()
    return (last or 0, voided, replaced, roster or 0, str(closed))


def fingerprints(db: Session) -> dict[int, tuple[object, ...]]:
    """Every session's fingerprint, for the list of sessions: an open session's is its
    board's (`fingerprint`); a closed one's is when it closed, since nothing but `reopen`
    changes a closed session. So the cost follows tonight's open tables, not the years
    of closed ones on a club's database."""
    rows = db.execute(select(S.id, S.closed_at).order_by(S.id)).all()
    return {
        session_id: ("closed", str(closed)) if closed else fingerprint(db, session_id)
        for session_id, closed in rows
    }


def recorded_since(db: Session, session_id: int, after_id: int) -> list[tuple[int, str]]:
    """Deals written after the deal with id `after_id`: (id, "N" or "N.revision")."""
    query = (
        select(D.id, D.number, D.revision)
        .where(D.session_id == session_id, D.id > after_id)
        .order_by(D.id)
    )
    return [
        (deal_id, deal_label(number, revision))
        for deal_id, number, revision in db.execute(query).all()
    ]


class Changes:
    """Says when the database may have changed, whoever changed it, without reading a session.

    Asked again and again by one thread of a server: `wait` returns True when something
    was committed since the last call (or may have been), False after a quiet while.
    """

    def wait(self, timeout: float) -> bool:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class SqliteChanges(Changes):
    """SQLite's `PRAGMA data_version` on a connection kept open: it moves at every commit
    of any other connection (another process, or the server's own writer), and asking
    costs microseconds, so a twentieth of a second is cheap."""

    POLL_SECONDS = 0.05

    def __init__(self, path: str, same_file: Callable[[], None]) -> None:
        # Read-only, so it never creates a file or changes one; the file must be there.
        self.connection = sqlite3.connect(
            f"file:{quote(path)}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
        )
        self.cursor = self.connection.cursor()
        self.same_file = same_file
        self.version = self._version()
        self.gone = False

    def _version(self) -> int:
        return int(self.cursor.execute("PRAGMA data_version").fetchone()[0])

    def wait(self, timeout: float) -> bool:
        time.sleep(min(timeout, self.POLL_SECONDS))
        if self.gone:
            return False
        try:
            # This connection keeps the file it opened: a backup restored over it, or the
            # file moved away, is seen by the path alone (the pages then say so and end).
            self.same_file()
        except NapError:
            self.gone = True
            return True
        try:
            version = self._version()
        except sqlite3.Error:  # busy or being replaced: the pages look for themselves
            return True
        changed, self.version = version != self.version, version
        return changed

    def close(self) -> None:
        self.connection.close()


class PostgresChanges(Changes):
    """PostgreSQL's LISTEN: every napledger writer sends NOTIFY at commit (store/db.py)."""

    def __init__(self, url: str) -> None:
        import psycopg  # only a club's server needs it

        self.error = psycopg.Error
        # The very connection settings SQLAlchemy would use, made by the same dialect.
        engine = create_engine(url)
        self.args, self.kwargs = engine.dialect.create_connect_args(engine.url)
        engine.dispose()
        self.connection = self._connect()

    def _connect(self) -> psycopg.Connection[Any]:
        import psycopg

        connection = psycopg.connect(*self.args, **self.kwargs, autocommit=True)
        connection.execute(f"LISTEN {CHANGES_CHANNEL}")
        return connection

    def wait(self, timeout: float) -> bool:
        try:
            return any(True for _ in self.connection.notifies(timeout=timeout, stop_after=1))
        except self.error:  # the server restarted or the network dropped: listen again
            self.connection.close()
            time.sleep(timeout)
            # Failing that, again at the next call; meanwhile the pages look for themselves.
            with contextlib.suppress(self.error):
                self.connection = self._connect()
            return True  # a change may have been missed while nobody listened

    def close(self) -> None:
        self.connection.close()


def changes(url: str, check_same_files: Callable[[], None]) -> Changes:
    """What tells a server that the database at `url` may have changed (NapError: nothing
    can yet, say a SQLite file not made); `check_same_files` refuses a file replaced."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        import psycopg

        try:
            return PostgresChanges(url)
        except psycopg.Error as error:
            raise NapError(f"cannot listen for changes: {error}") from None
    try:
        path = sqlite_path(parsed.database or "", write=False)
        return SqliteChanges(path, check_same_files)
    except sqlite3.Error as error:
        raise NapError(f"cannot watch {parsed.database} for changes: {error}") from None
